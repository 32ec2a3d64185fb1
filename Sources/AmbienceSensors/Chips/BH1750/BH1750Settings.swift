import AmbienceCore

// The BH1750's modes, measurement time register and lux conversion: pure, checked alone.
extension BH1750 {
    /// The continuous measurement modes.
    public enum Mode: Equatable, Sendable, CaseIterable, CustomStringConvertible {
        /// H-resolution: 1 lx per count at MTreg 69.
        case high
        /// H-resolution mode 2: twice the counts, 0.5 lx per count at MTreg 69.
        case high2
        /// L-resolution: fast (16 ms) but coarse (about 4 lx).
        case low

        /// "high", "high2" or "low", as a configuration file spells it.
        public init?(parsing text: String) {
            switch text.lowercased() {
            case "high", "h", "hres", "h-res": self = .high
            case "high2", "h2", "hres2", "h-res2": self = .high2
            case "low", "l", "lres", "l-res": self = .low
            default: return nil
            }
        }

        public var description: String {
            switch self {
            case .high: "H-res"
            case .high2: "H-res2"
            case .low: "L-res"
            }
        }

        /// The "continuously" opcode.
        var opcode: UInt8 {
            switch self {
            case .high: 0x10
            case .high2: 0x11
            case .low: 0x13
            }
        }

        /// The datasheet's maximum measurement time at MTreg 69 (typical: 120 ms and 16 ms).
        var maximumSecondsAtDefault: Double { self == .low ? 0.024 : 0.180 }
    }

    public enum ModeSetting: Equatable, Sendable, CustomStringConvertible {
        /// Mode and MTreg follow the light: the most sensitive setting in the dark, one that
        /// does not saturate in sunlight.
        case automatic
        case fixed(Mode)

        /// "auto" or a mode name.
        public init?(parsing text: String) {
            if text.lowercased() == "auto" || text.lowercased() == "automatic" {
                self = .automatic
            } else if let mode = Mode(parsing: text) {
                self = .fixed(mode)
            } else {
                return nil
            }
        }

        public var description: String {
            switch self {
            case .automatic: "auto"
            case .fixed(let mode): mode.description
            }
        }
    }

    public static let defaultMeasurementTime: UInt8 = 69
    public static let measurementTimeRange: ClosedRange<Int> = 31...254

    public struct Settings: Equatable, Sendable {
        public var mode: ModeSetting
        /// MTreg: sensitivity and measurement time both scale with it. Chosen by the driver
        /// when the mode is automatic.
        public var measurementTime: UInt8

        /// Automatic ranging: what a configuration without `mode` or `mtreg` asks for.
        public static let automatic = Settings(
            mode: .automatic, checkedMeasurementTime: BH1750.defaultMeasurementTime)

        private init(mode: ModeSetting, checkedMeasurementTime: UInt8) {
            self.mode = mode
            measurementTime = checkedMeasurementTime
        }

        /// Checks the values a configuration file gives (keys `mode` and `mtreg`).
        public init(mode: ModeSetting = .automatic, measurementTime: Int? = nil) throws(ConfigurationError) {
            self.mode = mode
            if let measurementTime {
                guard BH1750.measurementTimeRange.contains(measurementTime) else {
                    throw ConfigurationError(
                        key: "mtreg",
                        message:
                            "must be between 31 and 254 (the BH1750's MTreg range), not \(measurementTime)")
                }
                guard mode != .automatic else {
                    throw ConfigurationError(
                        key: "mtreg",
                        message:
                            "is chosen by automatic ranging when mode = \"auto\"; remove it or choose a mode")
                }
                self.measurementTime = UInt8(measurementTime)
            } else {
                self.measurementTime = BH1750.defaultMeasurementTime
            }
        }
    }

    /// lux = counts / 1.2 × 69 / MTreg, halved in H-res2 (datasheet; 1.2 is the typical
    /// measurement accuracy factor).
    public static func lux(counts: UInt16, mode: Mode, measurementTime: UInt8) -> Double {
        let lux = Double(counts) / 1.2 * 69 / Double(measurementTime)
        return mode == .high2 ? lux / 2 : lux
    }

    /// The worst-case time from a measurement command to its result, scaled with MTreg.
    public static func maximumMeasurementSeconds(mode: Mode, measurementTime: UInt8) -> Double {
        mode.maximumSecondsAtDefault * Double(measurementTime) / Double(defaultMeasurementTime)
    }
}
