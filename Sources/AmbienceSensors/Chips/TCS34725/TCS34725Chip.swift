import AmbienceConfig
import AmbienceCore
import AmbienceSystem

extension SensorKind {
    public static let tcs34725 = SensorKind("tcs34725")
}

extension TCS34725.Settings: ChipSettings {
    public static var defaults: Self { Self() }
    public var model: SensorModel { .tcs34725(self) }

    public init?(_ model: SensorModel) {
        guard case .tcs34725(let settings) = model else { return nil }
        self = settings
    }
}

extension TCS34725 {
    /// `kind = "tcs34725"`, `[sensor.tcs34725]` with `gain` and `integration`; found by its ID
    /// register. Without the table: automatic gain at 101 ms.
    public static let chip = ChipDescriptor(
        TCS34725.Settings.self, name: "TCS34725",
        addresses: [ChipAddress(0x29, "its only address")],
        table: ChipTable(
            ConfigurationTable([
                .choice(
                    "gain", meaning: "a TCS34725 gain", among: GainSetting.configurationChoices,
                    spelled: { $0.description }, parsing: { GainSetting(parsing: $0) }, get: { $0.gain },
                    set: { $0.gain = $1 }),
                .milliseconds(
                    "integration", among: IntegrationTime.allCases, milliseconds: { $0.roundedMilliseconds },
                    get: { $0.integrationTime }, set: { $0.integrationTime = $1 }),
            ])),
        // The TSL2591 and a TSL2561 can sit at 0x29 too. The TCS34725's ID register is read with
        // the same command byte as the TSL2591's, harmless to both, and their IDs differ (0x50).
        probeOrder: -1,
        probe: { bus, address, clock in
            guard (try? identify(bus: bus, address: address)) == true else { return nil }
            return SensorProbe.identified(
                "TCS34725", by: "its ID register", TCS34725(bus: bus, address: address, clock: clock), clock)
        },
        access: .i2c { settings, bus, address, clock in
            TCS34725(bus: bus, address: address, settings: settings, clock: clock)
        })
}

extension TCS34725.GainSetting {
    /// "auto", "1x", "4x", "16x" or "60x": the key `gain` of `[sensor.tcs34725]`, in this order.
    public static let configurationChoices: [Self] = [.automatic] + TCS34725.Gain.allCases.map(Self.fixed)
}
