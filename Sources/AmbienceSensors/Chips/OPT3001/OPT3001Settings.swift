import AmbienceI2C

// The OPT3001's configuration word, ranges and lux conversion: pure, so they can be checked alone.
extension OPT3001 {
    /// Where the driver looks when no address is configured: ADDR to GND.
    public static let defaultAddress: I2CAddress = 0x44
    /// MANUFACTURER ID (0x7E) reads "TI"; DEVICE ID (0x7F) reads 0x3001.
    public static let manufacturerID: UInt16 = 0x5449
    public static let deviceID: UInt16 = 0x3001

    /// One of the twelve full-scale ranges, RN 0 to 11: 40.95 lux × 2^RN, 0.01 lux × 2^RN a count.
    public struct FullScale: Equatable, Sendable, CustomStringConvertible {
        public let number: UInt8

        public init?(number: Int) {
            guard (0...11).contains(number) else { return nil }
            self.number = UInt8(number)
        }

        public static let all: [FullScale] = (0...11).compactMap { FullScale(number: $0) }

        /// Lux per count of the RESULT mantissa in this range.
        public var luxPerCount: Double { 0.01 * Double(1 << Int(number)) }
        /// The brightest light this range holds: 4095 counts.
        public var maximumLux: Double { luxPerCount * 4095 }

        public var description: String { "range \(number) (\(OPT3001.luxText(maximumLux)) lx)" }
    }

    public enum RangeSetting: Equatable, Sendable, CustomStringConvertible {
        /// RN = 0b1100: the chip picks the range for every conversion itself.
        case automatic
        case fixed(FullScale)

        /// "auto", or a range number 0–11.
        public init?(parsing text: String) {
            let lowered = text.lowercased()
            if lowered == "auto" || lowered == "automatic" {
                self = .automatic
            } else if let number = Int(text), let range = FullScale(number: number) {
                self = .fixed(range)
            } else {
                return nil
            }
        }

        public var description: String {
            switch self {
            case .automatic: "auto"
            case .fixed(let range): "\(range.number)"
            }
        }

        /// RN[3:0].
        var fieldValue: UInt16 {
            switch self {
            case .automatic: 0b1100
            case .fixed(let range): UInt16(range.number)
            }
        }
    }

    public enum ConversionTime: Equatable, Sendable, CaseIterable, CustomStringConvertible {
        case ms100
        case ms800

        /// 100 or 800; nil for anything else.
        public init?(milliseconds: Double) {
            switch milliseconds {
            case 100: self = .ms100
            case 800: self = .ms800
            default: return nil
            }
        }

        public var milliseconds: Double { self == .ms100 ? 100 : 800 }

        /// The datasheet's maximum integration time (typical 100 and 800 ms, ±10 %): the
        /// oscillator is not trimmed tighter, so a driver waiting the typical time may be early.
        public var maximumSeconds: Double { self == .ms100 ? 0.110 : 0.880 }

        public var description: String { self == .ms100 ? "100 ms" : "800 ms" }
    }

    public struct Settings: Equatable, Sendable {
        public var range: RangeSetting
        public var conversionTime: ConversionTime

        public init(range: RangeSetting = .automatic, conversionTime: ConversionTime = .ms800) {
            self.range = range
            self.conversionTime = conversionTime
        }

        /// The CONFIGURATION word the driver writes: RN, CT, M = 10 (continuous) and L = 1
        /// (latched window comparison, the power-on default, kept so the word differs from the
        /// default only where the driver means it to).
        public var configurationWord: UInt16 {
            range.fieldValue << 12 | (conversionTime == .ms800 ? 1 << 11 : 0) | Configuration.continuous
                | Configuration.latch
        }
    }

    enum Register {
        static let result: UInt8 = 0x00
        static let configuration: UInt8 = 0x01
        static let lowLimit: UInt8 = 0x02
        static let highLimit: UInt8 = 0x03
        static let manufacturerID: UInt8 = 0x7E
        static let deviceID: UInt8 = 0x7F
    }

    enum Configuration {
        /// RN, CT and M: what the driver sets and checks still holds.
        static let settingsMask: UInt16 = 0xFE00
        static let modeMask: UInt16 = 0x0600
        static let continuous: UInt16 = 0b10 << 9
        static let overflow: UInt16 = 1 << 8
        static let conversionReady: UInt16 = 1 << 7
        static let latch: UInt16 = 1 << 4
    }

    /// lux = 0.01 × 2^E × R, with E the RESULT's top four bits and R the twelve below.
    public static func lux(result: UInt16) -> Double {
        let exponent = Int(result >> 12)
        let mantissa = Double(result & 0x0FFF)
        return 0.01 * Double(1 << exponent) * mantissa
    }

    static func luxText(_ lux: Double) -> String {
        let hundredths = Int((lux * 100).rounded())
        let fraction = hundredths % 100
        let whole = "\(hundredths / 100)"
        if fraction == 0 { return whole }
        return whole + "."
            + (fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)"))
    }
}
