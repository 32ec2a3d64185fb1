import AmbienceConfig
import AmbienceCore
import AmbienceSystem

extension SensorKind {
    public static let tsl2591 = SensorKind("tsl2591")
}

extension TSL2591.Settings: ChipSettings {
    public static var defaults: Self { Self() }
    public var model: SensorModel { .tsl2591(self) }

    public init?(_ model: SensorModel) {
        guard case .tsl2591(let settings) = model else { return nil }
        self = settings
    }
}

extension TSL2591 {
    /// `kind = "tsl2591"`, `[sensor.tsl2591]` with `gain` and `integration`; found by its ID
    /// register. Without the table: automatic gain at 100 ms (the one integration that still
    /// reads daylight at 1x).
    public static let chip = ChipDescriptor(
        TSL2591.Settings.self, name: "TSL2591",
        addresses: [ChipAddress(0x29, "its only address")],
        table: ChipTable(
            ConfigurationTable([
                .choice(
                    "gain", meaning: "a TSL2591 gain", among: GainSetting.configurationChoices,
                    spelled: { $0.description }, parsing: { GainSetting(parsing: $0) }, get: { $0.gain },
                    set: { $0.gain = $1 }),
                .milliseconds(
                    "integration", among: IntegrationTime.allCases, milliseconds: { $0.milliseconds },
                    get: { $0.integrationTime }, set: { $0.integrationTime = $1 }),
            ])),
        // A TSL2591 and a TSL2561 can both sit at 0x29: the TSL2591's ID register is asked first.
        // On a TSL2561 the same command byte is a word read of a threshold register, which is
        // harmless and never reads 0x50 after power-up.
        probeOrder: -1,
        probe: { bus, address, clock in
            guard (try? identify(bus: bus, address: address)) == true else { return nil }
            return SensorProbe.identified(
                "TSL2591", by: "its ID register", TSL2591(bus: bus, address: address, clock: clock), clock)
        },
        access: .i2c { settings, bus, address, clock in
            TSL2591(bus: bus, address: address, settings: settings, clock: clock)
        })
}

extension TSL2591.GainSetting {
    /// "auto", "1x", "25x", "428x" or "9876x": the key `gain` of `[sensor.tsl2591]`, in this order.
    public static let configurationChoices: [Self] = [.automatic] + TSL2591.Gain.allCases.map(Self.fixed)
}
