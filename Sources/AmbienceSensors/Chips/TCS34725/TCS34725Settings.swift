import AmbienceCore

// The TCS34725's settings and its formulas: pure, so they can be checked alone.
extension TCS34725 {
    /// The four analog gains (CONTROL bits 1:0), as the datasheet states them.
    public enum Gain: Int, Equatable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
        case x1 = 0
        case x4 = 1
        case x16 = 2
        case x60 = 3

        public var factor: Double {
            switch self {
            case .x1: 1
            case .x4: 4
            case .x16: 16
            case .x60: 60
            }
        }

        public var description: String { "\(Int(factor))x" }

        /// AGAIN in place in CONTROL.
        var registerBits: UInt8 { UInt8(rawValue) }

        public static func < (lhs: Gain, rhs: Gain) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public enum GainSetting: Equatable, Sendable, CustomStringConvertible {
        /// The highest gain the light allows, switching with hysteresis.
        case automatic
        case fixed(Gain)

        /// "auto", or "1x", "4x", "16x", "60x".
        public init?(parsing text: String) {
            switch text.lowercased() {
            case "auto", "automatic": self = .automatic
            case "1x", "1": self = .fixed(.x1)
            case "4x", "4": self = .fixed(.x4)
            case "16x", "16": self = .fixed(.x16)
            case "60x", "60": self = .fixed(.x60)
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

    /// ATIME: the integration is (256 − ATIME) cycles of 2.4 ms. The choices are the cycle
    /// counts the datasheet tabulates, 24 ms to 614 ms.
    public enum IntegrationTime: Int, Equatable, Sendable, CaseIterable, CustomStringConvertible {
        case ms24 = 10
        case ms50 = 21
        case ms101 = 42
        case ms154 = 64
        case ms614 = 256

        /// 24, 50, 101, 154 or 614 (the milliseconds rounded); nil for anything else.
        public init?(milliseconds: Double) {
            guard let match = Self.allCases.first(where: { $0.roundedMilliseconds == milliseconds }) else {
                return nil
            }
            self = match
        }

        public var cycles: Int { rawValue }
        public var milliseconds: Double { Double(cycles) * 2.4 }
        public var roundedMilliseconds: Double { milliseconds.rounded() }
        public var seconds: Double { milliseconds / 1000 }
        public var description: String { "\(Int(roundedMilliseconds)) ms" }

        /// ATIME's value.
        var registerValue: UInt8 { UInt8(256 - cycles) }

        public var saturationCount: Int { TCS34725.saturationCount(cycles: cycles) }
    }

    public struct Settings: Equatable, Sendable {
        public var gain: GainSetting
        public var integrationTime: IntegrationTime

        /// 101 ms by default: a reading about every tenth of a second, as the daemon samples,
        /// with 32,000 counts before saturation.
        public init(gain: GainSetting = .automatic, integrationTime: IntegrationTime = .ms101) {
            self.gain = gain
            self.integrationTime = integrationTime
        }
    }

    /// Counts of one conversion: clear, red, green, blue.
    public struct Channels: Equatable, Sendable {
        public var clear: Double
        public var red: Double
        public var green: Double
        public var blue: Double

        public init(clear: Double, red: Double, green: Double, blue: Double) {
            self.clear = clear
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// TAOS DN40's infrared estimate: the red, green and blue filters pass the infrared the
        /// clear one does, so IR = (R + G + B − C) / 2, at least 0.
        public var infrared: Double { max(0, (red + green + blue - clear) / 2) }

        /// Red, green and blue with the infrared taken away (DN40), each at least 0.
        public var withoutInfrared: (red: Double, green: Double, blue: Double) {
            let ir = infrared
            return (max(0, red - ir), max(0, green - ir), max(0, blue - ir))
        }
    }

    /// DN40's device factor for the TCS3472x in open air (no glass over it: GA 1).
    public static let deviceFactor = 310.0

    /// Counts per lux: the integration in milliseconds × gain / DF.
    public static func countsPerLux(gain: Gain, integrationTime: IntegrationTime) -> Double {
        integrationTime.milliseconds * gain.factor / deviceFactor
    }

    /// Counts from here up are taken as saturated: the ADC's ceiling, 1024 counts a cycle of
    /// 2.4 ms and at most 65535, and below 150 ms (64 cycles) the datasheet's ripple saturation
    /// at 75 % of it (TAOS DN40), before the ADC's own.
    public static func saturationCount(cycles: Int) -> Int {
        let fullScale = min(65535, 1024 * cycles)
        return cycles < 64 ? fullScale * 3 / 4 : fullScale
    }

    /// One conversion's reading, at a gain (1, 4, 16 or 60) and an integration of `cycles` of
    /// 2.4 ms: DN40's lux, and the colour unless a channel saturated. The i2c-dev driver and the
    /// kernel's tcs3472 driver through IIO both read so.
    public static func reading(_ channels: Channels, gain: Double, cycles: Int, settings: String) -> Reading {
        let lux = lux(channels, countsPerLux: Double(cycles) * 2.4 * gain / deviceFactor)
        let ceiling = Double(saturationCount(cycles: cycles))
        guard channels.clear < ceiling, channels.red < ceiling, channels.green < ceiling,
            channels.blue < ceiling
        else {
            // A saturated channel says "at least this much" of itself and nothing of the colour.
            return Reading(lux: lux, isSaturated: true, settings: settings + ", saturated")
        }
        return Reading(lux: lux, colour: tristimulus(channels), settings: settings)
    }

    /// DN40's illuminance: (0.136 R' + 1.000 G' − 0.444 B') / CPL, R'G'B' without infrared;
    /// never below 0.
    public static func lux(_ channels: Channels, countsPerLux: Double) -> Double {
        let (red, green, blue) = channels.withoutInfrared
        return max(0, 0.136 * red + green - 0.444 * blue) / countsPerLux
    }

    /// CIE 1931 XYZ of the light, in the counts' scale, from the channels without infrared:
    /// the least-squares fit over black bodies, daylight and white LEDs of the datasheet's
    /// spectral responsivity to the CIE 1931 observer (`scripts/colour-sensor-response.py`;
    /// its accuracy per light is in docs/whitepoint.md).
    public static func tristimulus(_ channels: Channels) -> Tristimulus {
        let (r, g, b) = channels.withoutInfrared
        return Tristimulus(
            x: 0.7796 * r + 1.3215 * g - 0.3951 * b,
            y: 0.3555 * r + 1.9162 * g - 0.5413 * b,
            z: -0.3894 * r + 0.2979 * g + 1.7570 * b)
    }

    /// DN40's own colour temperature: 3810 B'/R' + 1391 K, for comparison with the one through
    /// XYZ; nil without red.
    public static func dn40Kelvin(_ channels: Channels) -> Double? {
        let (red, _, blue) = channels.withoutInfrared
        guard red > 0 else { return nil }
        return 3810 * blue / red + 1391
    }
}

extension TCS34725.Gain: AmsGain {}
