// The TSL2591's settings and its lux formula: pure, so they can be checked alone.
extension TSL2591 {
    /// The four analog gains (CONTROL bits 5:4). The factors are the ones the lux formula's
    /// DF of 408 was fitted with (ams' application note and Adafruit's library): 1, 25, 428
    /// and 9876. The datasheet's typical gain scaling is close to these but not guaranteed per
    /// part, so a reading may be off by the part's spread whichever set is chosen.
    public enum Gain: Int, Equatable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
        case low = 0
        case medium = 1
        case high = 2
        case maximum = 3

        public var factor: Double {
            switch self {
            case .low: 1
            case .medium: 25
            case .high: 428
            case .maximum: 9876
            }
        }

        public var description: String {
            switch self {
            case .low: "1x"
            case .medium: "25x"
            case .high: "428x"
            case .maximum: "9876x"
            }
        }

        /// AGAIN in place in CONTROL.
        var registerBits: UInt8 { UInt8(rawValue) << 4 }

        public static func < (lhs: Gain, rhs: Gain) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public enum GainSetting: Equatable, Sendable, CustomStringConvertible {
        /// The highest gain the light allows, switching with hysteresis.
        case automatic
        case fixed(Gain)

        /// "auto", or a gain as "low"/"1x", "medium"/"25x", "high"/"428x", "max"/"9876x".
        public init?(parsing text: String) {
            switch text.lowercased() {
            case "auto", "automatic": self = .automatic
            case "low", "1x", "1": self = .fixed(.low)
            case "medium", "med", "25x", "25": self = .fixed(.medium)
            case "high", "428x", "428": self = .fixed(.high)
            case "max", "maximum", "9876x", "9876": self = .fixed(.maximum)
            default: return nil
            }
        }

        public var description: String {
            switch self {
            case .automatic: "auto"
            case .fixed(let gain): gain.description
            }
        }
    }

    /// ATIME (CONTROL bits 2:0): 100 ms to 600 ms in steps of 100 ms.
    public enum IntegrationTime: Int, Equatable, Sendable, CaseIterable, CustomStringConvertible {
        case ms100 = 0
        case ms200 = 1
        case ms300 = 2
        case ms400 = 3
        case ms500 = 4
        case ms600 = 5

        /// 100, 200 … 600; nil for anything else.
        public init?(milliseconds: Double) {
            switch milliseconds {
            case 100: self = .ms100
            case 200: self = .ms200
            case 300: self = .ms300
            case 400: self = .ms400
            case 500: self = .ms500
            case 600: self = .ms600
            default: return nil
            }
        }

        public var milliseconds: Double { Double(rawValue + 1) * 100 }

        /// Nominal integration time in seconds.
        public var seconds: Double { milliseconds / 1000 }

        public var description: String { "\(rawValue + 1)00 ms" }

        var registerBits: UInt8 { UInt8(rawValue) }

        /// The ADC's ceiling (datasheet): 100 ms has too few cycles to reach 16 bits.
        public var fullScaleCount: UInt16 { self == .ms100 ? 37888 : 65535 }

        /// Counts from here up are taken as saturated. At 100 ms this is Adafruit's 36863 rather
        /// than the datasheet's 37888: flagging early costs 3 % of the range, while a part that
        /// tops out short of 37888 would otherwise give a too-low lux unflagged.
        public var saturationCount: UInt16 { self == .ms100 ? 36863 : 65535 }
    }

    public struct Settings: Equatable, Sendable {
        public var gain: GainSetting
        public var integrationTime: IntegrationTime

        /// 100 ms by default: the only integration that still reads daylight at 1x (about 74 000
        /// lux for daylight's infrared share, against 22 000 at 600 ms), and the quickest.
        public init(gain: GainSetting = .automatic, integrationTime: IntegrationTime = .ms100) {
            self.gain = gain
            self.integrationTime = integrationTime
        }
    }

    /// The lux "device factor" of ams' formula, from the application note and Adafruit's library.
    public static let deviceFactor = 408.0

    /// Counts per lux: ATIME in milliseconds × gain / DF.
    public static func countsPerLux(gain: Gain, integrationTime: IntegrationTime) -> Double {
        integrationTime.milliseconds * gain.factor / deviceFactor
    }

    /// The current ams/Adafruit formula, lux = (C0 − C1)(1 − C1/C0) / CPL. (The older two-line
    /// form, the larger of (C0 − 1.64·C1)/CPL and (0.59·C0 − 0.86·C1)/CPL, is not used: it went
    /// negative for infrared-rich light.) Light with no more full spectrum than infrared (C1 ≥ C0)
    /// is given 0: the product of two negatives would otherwise read as bright light.
    public static func lux(channel0: UInt16, channel1: UInt16, gain: Gain, integrationTime: IntegrationTime)
        -> Double
    {
        lux(
            channel0: Double(channel0), channel1: Double(channel1),
            countsPerLux: countsPerLux(gain: gain, integrationTime: integrationTime))
    }

    static func lux(channel0: Double, channel1: Double, countsPerLux: Double) -> Double {
        guard channel0 > 0, channel1 < channel0 else { return 0 }
        return (channel0 - channel1) * (1 - channel1 / channel0) / countsPerLux
    }
}

extension TSL2591.Gain: AmsGain {}
