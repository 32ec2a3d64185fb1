import AmbienceCore

// The TSL2561's settings and its datasheet lux formula: pure, so they can be checked alone.
extension TSL2561 {
    /// The package decides the lux formula's coefficients; the ID register tells which it is.
    public enum Package: String, Equatable, Sendable, CustomStringConvertible {
        case tFnCl = "T/FN/CL"
        case cs = "CS"

        public var description: String { rawValue }
    }

    public enum Gain: Equatable, Sendable, CustomStringConvertible {
        case x1
        case x16

        public var description: String { self == .x1 ? "1x" : "16x" }

        /// What the counts are multiplied by to reach the formula's nominal 16x.
        var scaleToNominal: Double { self == .x1 ? 16 : 1 }
    }

    public enum GainSetting: Equatable, Sendable, CustomStringConvertible {
        /// 16x in the dark, 1x in bright light, switching with hysteresis.
        case automatic
        case fixed(Gain)

        /// "auto", "1x" or "16x" (also "1", "16"), as a configuration file spells it.
        public init?(parsing text: String) {
            switch text.lowercased() {
            case "auto", "automatic": self = .automatic
            case "1x", "1": self = .fixed(.x1)
            case "16x", "16": self = .fixed(.x16)
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

    public enum IntegrationTime: Equatable, Sendable, CaseIterable, CustomStringConvertible {
        case ms13point7
        case ms101
        case ms402

        /// 13.7, 101 or 402 (13 and 14 are taken for 13.7); nil for anything else.
        public init?(milliseconds: Double) {
            switch milliseconds {
            case 13...14: self = .ms13point7
            case 101: self = .ms101
            case 402: self = .ms402
            default: return nil
            }
        }

        /// Nominal integration time in seconds.
        public var seconds: Double {
            switch self {
            case .ms13point7: 0.0137
            case .ms101: 0.101
            case .ms402: 0.402
            }
        }

        public var description: String {
            switch self {
            case .ms13point7: "13.7 ms"
            case .ms101: "101 ms"
            case .ms402: "402 ms"
            }
        }

        /// The TIMING register's INTEG field.
        var registerValue: UInt8 {
            switch self {
            case .ms13point7: 0b00
            case .ms101: 0b01
            case .ms402: 0b10
            }
        }

        /// The highest count the ADC can hold after this integration (datasheet).
        public var fullScaleCount: UInt16 {
            switch self {
            case .ms13point7: 5047
            case .ms101: 37177
            case .ms402: 65535
            }
        }

        /// Counts above this are treated as saturated: the response flattens a little before
        /// the hard limit, so the same margins as Adafruit's widely used driver are kept.
        public var saturationCount: UInt16 {
            switch self {
            case .ms13point7: 4900
            case .ms101: 37000
            case .ms402: 65000
            }
        }

        /// What the counts are multiplied by to reach the formula's nominal 402 ms: the
        /// datasheet's ratios of oscillator cycles, 322/11 and 322/81.
        var scaleToNominal: Double {
            switch self {
            case .ms13point7: 322.0 / 11.0
            case .ms101: 322.0 / 81.0
            case .ms402: 1
            }
        }
    }

    public struct Settings: Equatable, Sendable {
        public var gain: GainSetting
        public var integrationTime: IntegrationTime

        public init(gain: GainSetting = .automatic, integrationTime: IntegrationTime = .ms402) {
            self.gain = gain
            self.integrationTime = integrationTime
        }
    }

    /// What the ID register says: TSL2560 (SMBus) and TSL2561 (I2C) are the same chip for us.
    /// PARTNO is the high nibble: 0000 TSL2560CS, 0001 TSL2561CS, 0100 TSL2560T/FN/CL,
    /// 0101 TSL2561T/FN/CL; the low nibble is the revision.
    public static func identify(idRegister id: UInt8) -> (part: String, package: Package)? {
        switch id >> 4 {
        case 0b0000: ("TSL2560", .cs)
        case 0b0001: ("TSL2561", .cs)
        case 0b0100: ("TSL2560", .tFnCl)
        case 0b0101: ("TSL2561", .tFnCl)
        default: nil
        }
    }

    /// The datasheet's lux formula for raw channel counts taken with the given settings.
    /// CH0 sees visible and infrared light, CH1 mostly infrared; their ratio picks the segment.
    public static func lux(
        channel0: UInt16, channel1: UInt16, gain: Gain, integrationTime: IntegrationTime, package: Package
    ) -> Double {
        let scale = gain.scaleToNominal * integrationTime.scaleToNominal
        return lux(
            nominalChannel0: Double(channel0) * scale, nominalChannel1: Double(channel1) * scale,
            package: package)
    }

    /// The formula itself, on counts scaled to the nominal 16x and 402 ms.
    public static func lux(nominalChannel0 ch0: Double, nominalChannel1 ch1: Double, package: Package)
        -> Double
    {
        guard ch0 > 0 else { return 0 }
        let ratio = ch1 / ch0
        let lux: Double
        switch package {
        case .tFnCl:
            if ratio <= 0.50 {
                lux = 0.0304 * ch0 - 0.062 * ch0 * PortableMath.pow(ratio, 1.4)
            } else if ratio <= 0.61 {
                lux = 0.0224 * ch0 - 0.031 * ch1
            } else if ratio <= 0.80 {
                lux = 0.0128 * ch0 - 0.0153 * ch1
            } else if ratio <= 1.30 {
                lux = 0.00146 * ch0 - 0.00112 * ch1
            } else {
                lux = 0
            }
        case .cs:
            if ratio <= 0.52 {
                lux = 0.0315 * ch0 - 0.0593 * ch0 * PortableMath.pow(ratio, 1.4)
            } else if ratio <= 0.65 {
                lux = 0.0229 * ch0 - 0.0291 * ch1
            } else if ratio <= 0.80 {
                lux = 0.0157 * ch0 - 0.0180 * ch1
            } else if ratio <= 1.30 {
                lux = 0.00338 * ch0 - 0.00260 * ch1
            } else {
                lux = 0
            }
        }
        // The last segment reaches 0 at ratio 1.3; rounding must not make it negative.
        return max(0, lux)
    }
}
