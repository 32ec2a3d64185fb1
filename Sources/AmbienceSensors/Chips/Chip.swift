import AmbienceConfig
import AmbienceCore
import AmbienceI2C
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
    public static var allCases: [SensorKind] { Chips.all.map { $0.kind } }
}

/// A chip's settings, as its `[sensor.CHIP]` table gives them: one type per chip, beside its driver.
public protocol ChipSettings: Equatable, Sendable {
    /// What a file without the chip's table means: the driver's automatic behaviour.
    static var defaults: Self { get }
    /// These settings as every chip's are carried: the chip's case of `SensorModel`.
    var model: SensorModel { get }
    /// The settings of a model of this chip; nil for another chip's.
    init?(_ model: SensorModel)
}

extension ChipSettings {
    /// The chip these settings are for.
    public static var kind: SensorKind { defaults.model.kind }
}

extension SensorModel {
    public init(_ settings: some ChipSettings) { self = settings.model }

    /// Its descriptor in `Chips.all`.
    public var chip: ChipDescriptor { Chips.descriptor(kind) }

    /// The settings when they are of this type (the model is that chip), else nil.
    public func settings<Settings: ChipSettings>(_ type: Settings.Type) -> Settings? { Settings(self) }

    public var description: String { kind.rawValue }
}

/// Every chip's settings table as the configuration gave it (defaults where it did not): the
/// chosen chip's is used, the others are checked all the same and written back by `ambience check`.
public struct ChipSettingsSet: Equatable, Sendable {
    private var byKind: [SensorKind: SensorModel] = [:]

    public init(_ models: [SensorModel] = []) {
        for model in models { byKind[model.kind] = model }
    }

    /// The chip's settings: as set, or its defaults.
    public subscript(kind: SensorKind) -> SensorModel {
        get { byKind[kind] ?? Chips.descriptor(kind).defaults }
        set { byKind[kind] = newValue }
    }

    public subscript<Settings: ChipSettings>(type: Settings.Type) -> Settings {
        get { byKind[Settings.kind].flatMap(Settings.init) ?? Settings.defaults }
        set { byKind[Settings.kind] = newValue.model }
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

/// How the daemon reaches a chip, and how its driver is made from `Settings`: the chip's own
/// settings type where the chip declares it, `SensorModel` in its descriptor.
public enum ChipAccess<Settings: Sendable>: Sendable {
    /// On an I2C bus, at one of its addresses.
    case i2c(make: @Sendable (Settings, any I2CBus, I2CAddress, any Clock) -> any LightSensor)
    /// Through a kernel driver: no bus or address of its own. `check` says at once why it cannot be
    /// read (no such device), before the daemon starts.
    case kernel(
        check: @Sendable (Settings) -> String?,
        make: @Sendable (Settings, any Clock) -> any LightSensor)
}

extension ChipAccess where Settings: ChipSettings {
    /// The same access given any chip's model: this chip's settings (its defaults for another's).
    var forModels: ChipAccess<SensorModel> {
        switch self {
        case .i2c(let make):
            .i2c { model, bus, address, clock in make(Settings(model) ?? .defaults, bus, address, clock) }
        case .kernel(let check, let make):
            .kernel(
                check: { model in check(Settings(model) ?? .defaults) },
                make: { model, clock in make(Settings(model) ?? .defaults, clock) })
        }
    }
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
    public let defaults: SensorModel
    /// `[sensor.KIND]`; nil when the chip has no table.
    public let table: ChipTable<SensorModel>?
    /// Keys the chip adds to `[sensor]` itself.
    public let sensorKeys: [String]
    public let access: ChipAccess<SensorModel>
    /// Chips sharing an address are asked in this order, lowest first (list order otherwise).
    public let probeOrder: Int
    /// Nil when the chip is not looked for on a bus; else the outcome, or nil when it is not this
    /// chip (nothing answers, or another chip at a shared address should be asked).
    public let probe: Probe?
    private let decodeSensorKeys: @Sendable (Section, SensorKind?, inout ConfigurationDecoder) -> SensorModel
    private let renderSensorKeys: @Sendable (SensorModel) -> [(key: String, value: String)]

    /// A chip with its own table, `[sensor.KIND]`.
    public init<Settings: ChipSettings>(
        _ settings: Settings.Type, name: String, addresses: [ChipAddress], defaultAddress: I2CAddress? = nil,
        table: ChipTable<Settings>, probeOrder: Int = 0, probe: Probe?, access: ChipAccess<Settings>
    ) {
        self.init(
            settings, name: name, addresses: addresses, defaultAddress: defaultAddress,
            table: table.forModels,
            sensorKeys: [], decode: { _, _, _ in Settings.defaults }, render: { _ in [] },
            probeOrder: probeOrder, probe: probe, access: access)
    }

    /// A chip whose keys are in `[sensor]` itself (a kernel driver's device): `decode` reads them
    /// there, told the chosen kind, for every chip, so that every key in a file is checked;
    /// `render` writes them, for the chosen chip only.
    public init<Settings: ChipSettings>(
        _ settings: Settings.Type, name: String, sensorKeys: [String],
        decode: @escaping @Sendable (Section, SensorKind?, inout ConfigurationDecoder) -> Settings,
        render: @escaping @Sendable (Settings) -> [(key: String, value: String)],
        access: ChipAccess<Settings>
    ) {
        self.init(
            settings, name: name, addresses: [], defaultAddress: nil, table: nil, sensorKeys: sensorKeys,
            decode: decode, render: render, probeOrder: 0, probe: nil, access: access)
    }

    private init<Settings: ChipSettings>(
        _ settings: Settings.Type, name: String, addresses: [ChipAddress], defaultAddress: I2CAddress?,
        table: ChipTable<SensorModel>?, sensorKeys: [String],
        decode: @escaping @Sendable (Section, SensorKind?, inout ConfigurationDecoder) -> Settings,
        render: @escaping @Sendable (Settings) -> [(key: String, value: String)],
        probeOrder: Int, probe: Probe?, access: ChipAccess<Settings>
    ) {
        kind = Settings.kind
        self.name = name
        self.addresses = addresses
        self.defaultAddress = defaultAddress ?? addresses.first?.address ?? 0
        defaults = Settings.defaults.model
        self.table = table
        self.sensorKeys = sensorKeys
        decodeSensorKeys = { section, chosen, decoder in decode(section, chosen, &decoder).model }
        renderSensorKeys = { render(Settings($0) ?? Settings.defaults) }
        self.probeOrder = probeOrder
        self.probe = probe
        self.access = access.forModels
    }

    /// Whether the chip is on a bus the daemon opens (bus, address and force apply).
    public var usesBus: Bool {
        if case .i2c = access { return true }
        return false
    }

    public var addressValues: [I2CAddress] { addresses.map { $0.address } }

    /// "0x44 (ADDR to GND), 0x45 (ADDR to VDD) or …": the addresses and their pins, for messages.
    public var addressChoices: String {
        let choices = addresses.map { "\($0.address) (\($0.pins))" }
        guard choices.count > 1 else { return choices.joined() }
        return choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
    }

    /// Reads the chip's settings from `[sensor]` (its table, or its keys there), whether or not
    /// it is the chosen chip, so that every table in a file is checked.
    public func decode(
        sensor: Section, chosen: SensorKind?, decoder: inout ConfigurationDecoder
    ) -> SensorModel {
        guard let table else { return decodeSensorKeys(sensor, chosen, &decoder) }
        return table.decode(decoder.section(kind.rawValue, of: sensor), &decoder)
    }

    /// `[sensor.KIND]` as `ambience check` writes it (after its header), or nothing without a table.
    public func tableLines(_ model: SensorModel) -> [String] {
        table?.lines(model, "sensor." + kind.rawValue) ?? []
    }

    /// The keys the chip adds to `[sensor]`, with their values.
    public func sensorKeyValues(_ model: SensorModel) -> [(key: String, value: String)] {
        renderSensorKeys(model)
    }

    /// The driver for these settings on `bus` (not used by a kernel chip) at `address`.
    public func makeSensor(
        _ model: SensorModel, bus: any I2CBus, address: I2CAddress, clock: any Clock
    ) -> any LightSensor {
        switch access {
        case .i2c(let make): make(model, bus, address, clock)
        case .kernel(_, let make): make(model, clock)
        }
    }
}
