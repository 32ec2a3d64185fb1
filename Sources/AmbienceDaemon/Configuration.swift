import AmbienceConfig
import AmbienceCore
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors

/// Everything the daemon is configured with, validated: the sensor, the engine, the indicator
/// lines, the pipes and the files it keeps. Built by `DaemonConfiguration.load(from:…)` from
/// a TOML file, a board profile and defaults, or directly in code and tests.
public struct DaemonConfiguration: Equatable, Sendable {
    /// The board profile the file named, if any; its values are already merged in.
    public var board: String?
    public var sensor: SensorSettings
    /// Thresholds, τ, D, L, fault_after, and the sample interval P (`sensor.interval` in the file).
    public var engine: EngineConfiguration
    public var stateFile: String
    public var controlPipe: String
    /// Permission bits and group of the control pipe: its own, not the state pipes', so that
    /// being allowed to read the theme is not being allowed to override it.
    public var controlMode: UInt32
    /// Nil: the daemon's own group.
    public var controlGroup: String?
    /// Where a persisted override lives, and the persistent record of the light.
    public var stateDirectory: String
    /// Every output's table (`[gpio]`, `[pipes]`, `[record]`, `[backlight]`, `[display]`), each
    /// read through its accessor, declared in the output's folder.
    public var outputs = OutputSettingsSet()
    /// Where each key was set, when loaded from a file: faults found later, by the devices
    /// (a missing GPIO chip, a line out of range), are placed at file:line too.
    public var origins = ConfigurationOrigins()

    /// A refusal naming a key, placed where that key was set.
    public func locate(_ error: ConfigurationError) -> ConfigFileError {
        ConfigurationOrigin.place(error, origins: origins.byKey, mainFile: origins.file ?? "configuration")
    }

    public init(
        board: String? = nil, sensor: SensorSettings, engine: EngineConfiguration = .indoorKiosk,
        gpio: GPIOIndicator.Configuration? = nil, pipes: PipeSettings = PipeSettings(),
        stateFile: String = StateFileSink.defaultPath, controlPipe: String = ControlPipe.defaultPath,
        controlMode: UInt32 = UInt32(ControlPipe.defaultMode), controlGroup: String? = nil,
        stateDirectory: String = OverrideStore.defaultDirectory
    ) {
        self.board = board
        self.sensor = sensor
        self.engine = engine
        self.stateFile = stateFile
        self.controlPipe = controlPipe
        self.controlMode = controlMode
        self.controlGroup = controlGroup
        self.stateDirectory = stateDirectory
        self.gpio = gpio
        self.pipes = pipes
    }

    /// The same configuration with the state directory `state` chose: the configured one, or
    /// the one in RAM beside the control pipe when the configured one cannot be written.
    public func storing(in state: StateDirectory) -> DaemonConfiguration {
        var stored = self
        stored.stateDirectory = state.path(
            configured: stateDirectory, fallback: StateDirectory.fallback(forControl: controlPipe))
        return stored
    }

    /// P, seconds between samples: kept once, in the engine configuration, which validates it
    /// together with D and L.
    public var sampleInterval: Double { engine.sampleInterval }

    /// The defaults the configuration adds to the parts' own (paths, modes).
    public enum Defaults {
        /// The bus on the 40-pin header of every Raspberry Pi since the B+.
        public static let bus = 1
    }

    /// `[sensor]`: the chosen chip, where it is, and every chip's settings table. What each chip
    /// is (addresses, table, driver) is its descriptor's, in `Chips.all`.
    public struct SensorSettings: Equatable, Sendable {
        public typealias Kind = SensorKind

        public var kind: Kind
        /// /dev/i2c-N, or the adapter with that name whatever its number.
        public var bus: I2CBusSelector
        public var address: I2CAddress
        /// Use the address even when a kernel driver has claimed it (I2C_SLAVE_FORCE).
        public var force: Bool
        /// Each chip's settings as the file gave them: the chosen kind's are used; the others'
        /// are checked and written back by `ambience check` all the same.
        public var chips: ChipSettingsSet

        /// `settings`: any chips' settings (`BH1750.Settings`, `VEML7700.Settings`…); the others
        /// are their defaults.
        public init(
            kind: Kind, bus: I2CBusSelector = .number(Defaults.bus), address: I2CAddress? = nil,
            force: Bool = false, settings: [SensorModel] = []
        ) {
            self.kind = kind
            self.bus = bus
            self.address = address ?? Chips.descriptor(kind).defaultAddress
            self.force = force
            chips = ChipSettingsSet(settings)
        }

        /// The chosen chip's descriptor.
        public var chip: ChipDescriptor { Chips.descriptor(kind) }

        /// The chosen chip with its settings.
        public var model: SensorModel {
            get { chips[kind] }
            set {
                kind = newValue.kind
                chips[kind] = newValue
            }
        }

        /// One chip's settings, whether or not it is the chosen one.
        public subscript<Settings: ChipSettings>(settings: Settings.Type) -> Settings {
            get { chips[settings] }
            set { chips[settings] = newValue }
        }
    }
}
