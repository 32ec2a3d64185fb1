import AmbienceConfig
import AmbienceCore
import AmbienceSystem

/// The word a configuration names a chip with (`kind = "veml7700"`), and the name of its
/// settings table (`[sensor.veml7700]`). Each chip's folder declares its own.
public struct SensorKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// A chip's own word, declared in its folder.
    init(_ word: String) { rawValue = word }

    /// The kind of a chip in `Chips.all`; nil for any other word.
    public init?(rawValue: String) {
        guard let chip = Chips.all.first(where: { $0.kind.rawValue == rawValue }) else { return nil }
        self = chip.kind
    }

    public var description: String { rawValue }

    /// Every kind a descriptor in `Chips.all` has, in that list's order.
    public static var allCases: [SensorKind] { Chips.all.map(\.kind) }
}

/// A chip's settings, as its `[sensor.CHIP]` table gives them: one type per chip, beside its driver.
public protocol ChipSettings: Equatable, Sendable {
    /// The chip these settings are for.
    static var kind: SensorKind { get }
    /// What a file without the chip's table means: the driver's automatic behaviour.
    static var defaults: Self { get }
}

extension ChipSettings {
    /// Equality across the type erasure: settings of another chip are never equal.
    public func isEqual(to other: any ChipSettings) -> Bool {
        (other as? Self) == self
    }
}

/// The chip the daemon reads, with its settings: one value per chip, each carrying that chip's
/// own settings type (`BH1750.Settings`, `VEML7700.Settings`…, or the IIO device).
public struct SensorModel: Equatable, Sendable, CustomStringConvertible {
    public let settings: any ChipSettings

    public init(_ settings: any ChipSettings) { self.settings = settings }

    public var kind: SensorKind { type(of: settings).kind }
    /// Its descriptor in `Chips.all`.
    public var chip: ChipDescriptor { Chips.descriptor(kind) }

    /// The settings when they are of this type (the model is that chip), else nil.
    public func settings<Settings: ChipSettings>(_ type: Settings.Type) -> Settings? {
        settings as? Settings
    }

    public var description: String { kind.rawValue }

    public static func == (lhs: SensorModel, rhs: SensorModel) -> Bool {
        lhs.settings.isEqual(to: rhs.settings)
    }
}

/// Every chip's settings table as the configuration gave it (defaults where it did not): the
/// chosen chip's is used, the others are checked all the same and written back by `ambience check`.
public struct ChipSettingsSet: Equatable, Sendable {
    private var byKind: [SensorKind: SensorModel] = [:]

    public init(_ settings: [any ChipSettings] = []) {
        for one in settings { byKind[type(of: one).kind] = SensorModel(one) }
    }

    /// The chip's settings: as set, or its defaults.
    public subscript(kind: SensorKind) -> SensorModel {
        get { byKind[kind] ?? SensorModel(Chips.descriptor(kind).defaults) }
        set { byKind[kind] = newValue }
    }

    public subscript<Settings: ChipSettings>(type: Settings.Type) -> Settings {
        get { byKind[Settings.kind]?.settings(Settings.self) ?? Settings.defaults }
        set { byKind[Settings.kind] = SensorModel(newValue) }
    }

    public static func == (lhs: ChipSettingsSet, rhs: ChipSettingsSet) -> Bool {
        Set(lhs.byKind.keys).union(rhs.byKind.keys).allSatisfy { lhs[$0] == rhs[$0] }
    }
}

/// One address a chip can answer at, and how its pins choose it ("ADDR to GND").
public struct ChipAddress: Sendable {
    public var address: I2CAddress
    public var pins: String

    public init(_ address: I2CAddress, _ pins: String) {
        self.address = address
        self.pins = pins
    }
}

/// A chip's settings table written back as TOML: the keys of `[sensor.CHIP]` with their values,
/// comments for the keys left to the driver, and keys the chip adds to `[sensor]` itself (the IIO
/// device), written only when it is the chosen one.
public struct ChipRendering: Sendable {
    public var table: [(key: String, value: String)] = []
    public var comments: [String] = []
    public var sensorKeys: [(key: String, value: String)] = []

    public init(
        table: [(key: String, value: String)] = [], comments: [String] = [],
        sensorKeys: [(key: String, value: String)] = []
    ) {
        self.table = table
        self.comments = comments
        self.sensorKeys = sensorKeys
    }
}

/// How the daemon reaches a chip, and how its driver is made.
public enum ChipAccess: Sendable {
    /// On an I2C bus, at one of its addresses.
    case i2c(make: @Sendable (any ChipSettings, any I2CBus, I2CAddress, any Clock) -> any LightSensor)
    /// Through a kernel driver: no bus or address of its own. `check` says at once why it cannot be
    /// read (no such device), before the daemon starts.
    case kernel(
        check: @Sendable (any ChipSettings) -> String?,
        make: @Sendable (any ChipSettings, any Clock) -> any LightSensor)
}

/// What a chip is to the rest of the program, kept beside its driver: its kind word, addresses
/// and pins, its settings table (keys, decoder, rendering), how `probe` identifies it and how
/// its driver is made. Central code goes over `Chips.all` instead of switching over kinds.
public struct ChipDescriptor: Sendable {
    public typealias Section = ConfigurationDecoder.Section
    public typealias Probe = @Sendable (any I2CBus, I2CAddress, any Clock) -> ProbeFinding.Outcome?

    public let kind: SensorKind
    /// The chip's name as a person writes it: "VEML7700".
    public let name: String
    /// Empty for a chip the kernel has.
    public let addresses: [ChipAddress]
    /// Where the driver looks when the file gives no address.
    public let defaultAddress: I2CAddress
    public let defaults: any ChipSettings
    /// The keys of `[sensor.KIND]`; nil when the chip has no table.
    public let tableKeys: [String]?
    /// Keys the chip adds to `[sensor]` itself.
    public let sensorKeys: [String]
    public let access: ChipAccess
    /// Chips sharing an address are asked in this order, lowest first (list order otherwise).
    public let probeOrder: Int
    /// Nil when the chip is not looked for on a bus; else the outcome, or nil when it is not this
    /// chip (nothing answers, or another chip at a shared address should be asked).
    public let probe: Probe?
    private let decodeErased: @Sendable (Section, SensorKind?, inout ConfigurationDecoder) -> any ChipSettings
    private let renderErased: @Sendable (any ChipSettings) -> ChipRendering

    /// `decode` reads the chip's table (`[sensor.KIND]`, its unknown keys already refused) when
    /// `tableKeys` is given, else `[sensor]` itself; it is told the chosen kind, and reads the
    /// table whether or not its chip is the chosen one, so that every table in a file is checked.
    public init<Settings: ChipSettings>(
        _ settings: Settings.Type, name: String, addresses: [ChipAddress], defaultAddress: I2CAddress? = nil,
        tableKeys: [String]?, sensorKeys: [String] = [],
        decode: @escaping @Sendable (Section, SensorKind?, inout ConfigurationDecoder) -> Settings,
        render: @escaping @Sendable (Settings) -> ChipRendering,
        probeOrder: Int = 0, probe: Probe?,
        access: ChipAccess
    ) {
        kind = Settings.kind
        self.name = name
        self.addresses = addresses
        self.defaultAddress = defaultAddress ?? addresses.first?.address ?? 0
        defaults = Settings.defaults
        self.tableKeys = tableKeys
        self.sensorKeys = sensorKeys
        decodeErased = { section, chosen, decoder in decode(section, chosen, &decoder) }
        renderErased = { render($0 as? Settings ?? Settings.defaults) }
        self.probeOrder = probeOrder
        self.probe = probe
        self.access = access
    }

    /// Whether the chip is on a bus the daemon opens (bus, address and force apply).
    public var usesBus: Bool {
        if case .i2c = access { return true }
        return false
    }

    public var addressValues: [I2CAddress] { addresses.map(\.address) }

    /// "0x44 (ADDR to GND), 0x45 (ADDR to VDD) or …": the addresses and their pins, for messages.
    public var addressChoices: String {
        let choices = addresses.map { "\($0.address) (\($0.pins))" }
        guard choices.count > 1 else { return choices.joined() }
        return choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
    }

    /// Reads the chip's settings from `[sensor]` (its table, or its keys there).
    public func decode(
        sensor: Section, chosen: SensorKind?, decoder: inout ConfigurationDecoder
    ) -> any ChipSettings {
        guard let tableKeys else { return decodeErased(sensor, chosen, &decoder) }
        let section = decoder.section(kind.rawValue, of: sensor)
        decoder.allowOnly(tableKeys, in: section)
        return decodeErased(section, chosen, &decoder)
    }

    public func render(_ settings: any ChipSettings) -> ChipRendering { renderErased(settings) }

    /// The driver for these settings on `bus` (not used by a kernel chip) at `address`.
    public func makeSensor(
        _ settings: any ChipSettings, bus: any I2CBus, address: I2CAddress, clock: any Clock
    ) -> any LightSensor {
        switch access {
        case .i2c(let make): make(settings, bus, address, clock)
        case .kernel(_, let make): make(settings, clock)
        }
    }
}
