import AmbienceI2C

// The VEML7700's gains, integration times, configuration word and lux conversion: pure, so
// they can be checked alone.
extension VEML7700 {
    /// Only one address: the chip has no address pin.
    public static var addresses: [I2CAddress] { chip.addressValues }
    public static let defaultAddress: I2CAddress = 0x10

    /// ALS_GAIN, bits 12:11 of ALS_CONF_0.
    public enum Gain: Equatable, Sendable, CaseIterable, CustomStringConvertible {
        case eighth
        case quarter
        case x1
        case x2

        /// "1/8", "1/4", "1x" or "2x" (also "0.125", "0.25", "1", "2"), as a configuration spells it.
        public init?(parsing text: String) {
            switch text.lowercased() {
            case "1/8", "0.125", "x1/8": self = .eighth
            case "1/4", "0.25", "x1/4": self = .quarter
            case "1x", "1", "x1": self = .x1
            case "2x", "2", "x2": self = .x2
            default: return nil
            }
        }

        public var description: String {
            switch self {
            case .eighth: "1/8"
            case .quarter: "1/4"
            case .x1: "1x"
            case .x2: "2x"
            }
        }

        public var factor: Double {
            switch self {
            case .eighth: 0.125
            case .quarter: 0.25
            case .x1: 1
            case .x2: 2
            }
        }

        /// The field's value before shifting; 1/8 and 1/4 are 0b10 and 0b11, after 1x and 2x.
        var bits: UInt16 {
            switch self {
            case .x1: 0b00
            case .x2: 0b01
            case .eighth: 0b10
            case .quarter: 0b11
            }
        }
    }

    /// ALS_IT, bits 9:6 of ALS_CONF_0.
    public enum IntegrationTime: Equatable, Sendable, CaseIterable, CustomStringConvertible {
        case ms25
        case ms50
        case ms100
        case ms200
        case ms400
        case ms800

        /// 25, 50, 100, 200, 400 or 800; nil for anything else.
        public init?(milliseconds: Double) {
            guard let match = Self.allCases.first(where: { $0.milliseconds == milliseconds }) else {
                return nil
            }
            self = match
        }

        public var milliseconds: Double {
            switch self {
            case .ms25: 25
            case .ms50: 50
            case .ms100: 100
            case .ms200: 200
            case .ms400: 400
            case .ms800: 800
            }
        }

        public var seconds: Double { milliseconds / 1000 }

        public var description: String { "\(Int(milliseconds)) ms" }

        /// Not in order of time: 100 ms is 0b0000, longer ones count up, shorter ones are 0b1000
        /// and 0b1100.
        var bits: UInt16 {
            switch self {
            case .ms25: 0b1100
            case .ms50: 0b1000
            case .ms100: 0b0000
            case .ms200: 0b0001
            case .ms400: 0b0010
            case .ms800: 0b0011
            }
        }
    }

    /// A gain and an integration time: together they fix the lux per count.
    public struct Range: Equatable, Sendable, CustomStringConvertible {
        public var gain: Gain
        public var integrationTime: IntegrationTime

        public init(gain: Gain, integrationTime: IntegrationTime) {
            self.gain = gain
            self.integrationTime = integrationTime
        }

        public var description: String { "gain \(gain), \(integrationTime)" }

        /// Lux per count: 0.0042 at 2x and 800 ms (datasheet rev. 1.7, which corrected the
        /// earlier 0.0036), inversely proportional to gain and to integration time.
        public var luxPerCount: Double {
            VEML7700.finestLuxPerCount * (2 / gain.factor) * (800 / integrationTime.milliseconds)
        }

        /// ALS_CONF_0 for this range, powered on, interrupt off, persistence 1: SD (bit 0) clear.
        public var configuration: UInt16 { gain.bits << 11 | integrationTime.bits << 6 }

        /// The worst case from powering on (or a new configuration) to the first conversion
        /// with these settings: the datasheet gives no tolerance for the integration clock, so
        /// 10 % is allowed, plus the 2.5 ms start-up after leaving shutdown, rounded up to 3 ms.
        public var settleSeconds: Double { integrationTime.seconds * 1.1 + 0.003 }
    }

    public enum RangeSetting: Equatable, Sendable, CustomStringConvertible {
        /// Gain and integration time follow the light, as the application note's flow chart
        /// does, with hysteresis so they do not hunt.
        case automatic
        case fixed(Range)

        public var description: String {
            switch self {
            case .automatic: "auto"
            case .fixed(let range): range.description
            }
        }
    }

    public struct Settings: Equatable, Sendable {
        public var range: RangeSetting

        public static let automatic = Settings(range: .automatic)

        public init(range: RangeSetting = .automatic) { self.range = range }

        public init(gain: Gain, integrationTime: IntegrationTime) {
            range = .fixed(Range(gain: gain, integrationTime: integrationTime))
        }
    }

    static let finestLuxPerCount = 0.0042

    /// Automatic ranging, most sensitive first. Neighbours differ by 2x in lux per count, except
    /// 2x→1x gain at 100 ms (4x); the flow chart's order: gain first, then integration time.
    public static let automaticRanges: [Range] = [
        Range(gain: .x2, integrationTime: .ms800),
        Range(gain: .x2, integrationTime: .ms400),
        Range(gain: .x2, integrationTime: .ms200),
        Range(gain: .x2, integrationTime: .ms100),
        Range(gain: .x1, integrationTime: .ms100),
        Range(gain: .quarter, integrationTime: .ms100),
        Range(gain: .eighth, integrationTime: .ms100),
        Range(gain: .eighth, integrationTime: .ms50),
        Range(gain: .eighth, integrationTime: .ms25),
    ]

    /// Where the application note starts: 1/8 and 100 ms.
    static let automaticStartIndex = 6

    /// Above this the application note's correction applies (linear up to about 1000 lx).
    public static let correctionThreshold = 1000.0

    /// The application note's non-linearity correction ("Designing the VEML7700 into an
    /// application"): 6.0135e-13·L⁴ − 9.3924e-9·L³ + 8.1488e-5·L² + 1.0023·L. Its own example,
    /// 1500 lx → 1658 lx, checks the coefficients.
    public static func corrected(_ lux: Double) -> Double {
        guard lux > correctionThreshold else { return lux }
        return (((6.0135e-13 * lux - 9.3924e-9) * lux + 8.1488e-5) * lux + 1.0023) * lux
    }

    /// Counts to lux: linear by the range's resolution, then the correction above 1000 lx.
    /// The note's threshold is kept although the polynomial is 1075 lx at 1000 lx: readings
    /// jump over 1000–1075 lx, as they would on any driver following the note.
    public static func lux(counts: UInt16, range: Range) -> Double {
        corrected(Double(counts) * range.luxPerCount)
    }

    /// Whether the chip at `address` is a VEML7700: the ID register's low byte is 0x81.
    /// (The high byte is the address option code, not checked, since it varies by variant.)
    public static func identify(bus: any I2CBus, address: I2CAddress) -> Bool {
        guard let id = try? bus.readWordData(command: Register.id, from: address) else { return false }
        return id & 0xFF == deviceID
    }

    static let deviceID: UInt16 = 0x81
}
