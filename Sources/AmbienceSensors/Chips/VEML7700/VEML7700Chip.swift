import AmbienceConfig
import AmbienceCore
import AmbienceSystem

extension SensorKind {
    public static let veml7700 = SensorKind("veml7700")
}

extension VEML7700.Settings: ChipSettings {
    public static var defaults: Self { .automatic }
    public var model: SensorModel { .veml7700(self) }

    public init?(_ model: SensorModel) {
        guard case .veml7700(let settings) = model else { return nil }
        self = settings
    }
}

extension VEML7700 {
    /// The integration time a fixed gain is used with when the file gives none: the chip's own
    /// power-on value, and the one the application note's ranging starts from.
    public static let defaultIntegrationTime = IntegrationTime.ms100

    /// `kind = "veml7700"`, `[sensor.veml7700]` with `gain` and `integration`; found by its ID
    /// register. Without the table: automatic gain and integration, as Vishay's note ranges it.
    public static let chip = ChipDescriptor(
        VEML7700.Settings.self, name: "VEML7700",
        addresses: [ChipAddress(0x10, "its only address")],
        table: table,
        probe: { bus, address, clock in
            guard identify(bus: bus, address: address) else {
                return SensorProbe.answers(bus, address)
                    ? .unidentified("answers, but its ID register is not a VEML7700's") : nil
            }
            return SensorProbe.identified(
                "VEML7700", by: "its ID register", VEML7700(bus: bus, address: address, clock: clock), clock)
        },
        access: .i2c { settings, bus, address, clock in
            VEML7700(bus: bus, address: address, settings: settings, clock: clock)
        })

    /// `gain` is "auto" (gain and integration time follow the light) or a gain; `integration`
    /// goes with a fixed gain only.
    /// `[sensor.veml7700]`: a gain or "auto", and the integration time with a fixed gain.
    static let table = ChipTable<Settings>(
        ConfigurationTable<TableValues>([
            .choice(
                "gain", meaning: "a VEML7700 gain", among: [nil] + Gain.allCases.map { $0 },
                spelled: { $0?.description ?? "auto" },
                parsing: { $0 == "auto" ? .some(nil) : Gain(parsing: $0).map { .some($0) } },
                get: { $0.gain },
                set: { $0.gain = $1 }),
            .milliseconds(
                "integration", among: IntegrationTime.allCases, milliseconds: { $0.milliseconds },
                get: { $0.integration }, set: { $0.integration = $1 }, unset: "chosen by automatic ranging"),
        ]),
        reading: TableValues(),
        settings: { values, section, decoder in
            // A gain already refused would only make the integration look wrong as well.
            guard let chosen = values.gain ?? (decoder.isGiven("gain", in: section) ? nil : .some(nil)) else {
                return .automatic
            }
            guard let fixed = chosen else {
                if values.integration != nil {
                    decoder.chosenByAutomaticRanging("integration", in: section, by: "gain")
                }
                return .automatic
            }
            return Settings(gain: fixed, integrationTime: values.integration ?? defaultIntegrationTime)
        },
        values: { settings in
            switch settings.range {
            case .automatic: TableValues(gain: .some(nil))
            case .fixed(let range): TableValues(gain: range.gain, integration: range.integrationTime)
            }
        })

    /// The table as the file gives it: nil for a key not given (or refused); a gain of nil is "auto".
    struct TableValues {
        var gain: Gain??
        var integration: IntegrationTime?
    }
}
