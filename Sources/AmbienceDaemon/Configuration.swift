import AmbienceCore

/// Everything the daemon is configured with, validated: the sensor, the engine, the indicator
/// lines, the pipes and the files it keeps. Built by `DaemonConfiguration.load(from:…)` from
/// a TOML file, a board profile and defaults, or directly in code and tests.
public struct DaemonConfiguration: Equatable, Sendable {
    public static let defaultPath = "/etc/ambience/ambience.toml"

    /// The board profile the file named, if any; its values are already merged in.
    public var board: String?
    public var sensor: SensorSettings
    /// Thresholds, τ, D, L, fault_after, and the sample interval P (`sensor.interval` in the file).
    public var engine: EngineConfiguration
    /// Nil when no indicator line is configured.
    public var gpio: GPIOSettings?
    public var pipes: PipeSettings
    public var stateFile: String
    public var controlPipe: String
    /// Where a persisted override lives.
    public var stateDirectory: String

    public init(
        board: String? = nil, sensor: SensorSettings, engine: EngineConfiguration = .indoorKiosk,
        gpio: GPIOSettings? = nil, pipes: PipeSettings = PipeSettings(),
        stateFile: String = Defaults.stateFile, controlPipe: String = Defaults.controlPipe,
        stateDirectory: String = Defaults.stateDirectory
    ) {
        self.board = board
        self.sensor = sensor
        self.engine = engine
        self.gpio = gpio
        self.pipes = pipes
        self.stateFile = stateFile
        self.controlPipe = controlPipe
        self.stateDirectory = stateDirectory
    }

    /// P, seconds between samples: kept once, in the engine configuration, which validates it
    /// together with D and L.
    public var sampleInterval: Double { engine.sampleInterval }

    public enum Defaults {
        public static let stateFile = "/run/ambience/state.json"
        public static let controlPipe = "/run/ambience/control"
        public static let stateDirectory = "/var/lib/ambience"
        public static let pipePath = "/run/ambience/state"
        /// The bus on the 40-pin header of every Raspberry Pi since the B+.
        public static let bus = 1
    }

    public struct SensorSettings: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable {
            case bh1750, tsl2561

            public var defaultAddress: UInt8 {
                switch self {
                case .bh1750: 0x23
                case .tsl2561: 0x39
                }
            }

            /// The addresses the chip can answer at, set by its ADDR pin.
            public var addresses: [UInt8] {
                switch self {
                case .bh1750: [0x23, 0x5C]
                case .tsl2561: [0x29, 0x39, 0x49]
                }
            }
        }

        public var kind: Kind
        /// N of /dev/i2c-N.
        public var bus: Int
        public var address: UInt8
        /// Use the address even when a kernel driver has claimed it (I2C_SLAVE_FORCE).
        public var force: Bool
        public var bh1750: BH1750Settings
        public var tsl2561: TSL2561Settings

        public init(
            kind: Kind, bus: Int = Defaults.bus, address: UInt8? = nil, force: Bool = false,
            bh1750: BH1750Settings = BH1750Settings(), tsl2561: TSL2561Settings = TSL2561Settings()
        ) {
            self.kind = kind
            self.bus = bus
            self.address = address ?? kind.defaultAddress
            self.force = force
            self.bh1750 = bh1750
            self.tsl2561 = tsl2561
        }
    }

    public struct BH1750Settings: Equatable, Sendable {
        public enum Mode: String, CaseIterable, Sendable {
            /// Continuous high resolution with MTreg ranged automatically.
            case auto
            /// Continuous H-resolution (1 lx), H-resolution mode 2 (0.5 lx), L-resolution (4 lx).
            case high, high2, low
        }

        public var mode: Mode
        /// The measurement time register, 31…254; 69 is the chip's default.
        public var mtreg: UInt8

        public static let mtregRange: ClosedRange<UInt8> = 31...254

        public init(mode: Mode = .auto, mtreg: UInt8 = 69) {
            self.mode = mode
            self.mtreg = mtreg
        }
    }

    public struct TSL2561Settings: Equatable, Sendable {
        public enum Gain: String, CaseIterable, Sendable {
            case auto
            case x1 = "1x"
            case x16 = "16x"
        }

        public enum Integration: CaseIterable, Sendable {
            case ms13point7, ms101, ms402

            public var milliseconds: Double {
                switch self {
                case .ms13point7: 13.7
                case .ms101: 101
                case .ms402: 402
                }
            }
        }

        public var gain: Gain
        public var integration: Integration

        public init(gain: Gain = .auto, integration: Integration = .ms402) {
            self.gain = gain
            self.integration = integration
        }
    }

    public struct GPIOSettings: Equatable, Sendable {
        /// A chip name (gpiochip0), path (/dev/gpiochip0) or label (pinctrl-bcm2711).
        public var chip: String
        /// Line offsets on the chip, lit while their state holds; any subset of the states.
        public var lines: [AmbienceState: Int]
        public var fault: Int?
        public var activeLow: Bool

        /// libgpiod numbers lines with an unsigned int, and no chip has anywhere near this many.
        public static let offsetRange = 0...65_535

        public init(chip: String, lines: [AmbienceState: Int], fault: Int? = nil, activeLow: Bool = false) {
            self.chip = chip
            self.lines = lines
            self.fault = fault
            self.activeLow = activeLow
        }
    }

    public struct PipeSettings: Equatable, Sendable {
        public var paths: [String]
        public var format: EventLine.Format
        /// Permission bits of a pipe the daemon creates.
        public var mode: UInt32
        /// Group of a pipe the daemon creates; nil: the daemon's own.
        public var group: String?

        public init(
            paths: [String] = [Defaults.pipePath], format: EventLine.Format = .json, mode: UInt32 = 0o660,
            group: String? = nil
        ) {
            self.paths = paths
            self.format = format
            self.mode = mode
            self.group = group
        }
    }
}
