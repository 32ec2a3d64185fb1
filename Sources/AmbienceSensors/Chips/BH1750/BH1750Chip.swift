import AmbienceConfig
import AmbienceCore
import AmbienceI2C
import AmbienceSystem

extension SensorKind {
    public static let bh1750 = SensorKind("bh1750")
}

extension BH1750.Settings: ChipSettings {
    public static var defaults: Self { .automatic }
    public var model: SensorModel { .bh1750(self) }

    public init?(_ model: SensorModel) {
        guard case .bh1750(let settings) = model else { return nil }
        self = settings
    }
}

extension BH1750 {
    /// Where the driver looks when no address is configured: ADDR low.
    public static let defaultAddress: I2CAddress = 0x23

    /// `kind = "bh1750"`, `[sensor.bh1750]` with `mode` and `mtreg`; found by behaviour, since
    /// it has no ID register.
    public static let chip = ChipDescriptor(
        BH1750.Settings.self, name: "BH1750",
        addresses: [ChipAddress(0x23, "ADDR low"), ChipAddress(0x5C, "ADDR high")],
        table: table,
        probe: { bus, address, clock in probe(bus, address, clock) },
        access: .i2c { settings, bus, address, clock in
            BH1750(bus: bus, address: address, settings: settings, clock: clock)
        })

    /// Read by the driver's own types, whose refusals (MTreg with automatic ranging) are placed
    /// back in the file.
    /// `[sensor.bh1750]`: a mode, and the MTreg with a fixed one.
    static let table = ChipTable<Settings>(
        ConfigurationTable<TableValues>([
            .choice(
                "mode", meaning: "a BH1750 mode", among: ModeSetting.configurationChoices,
                spelled: { $0.configurationText }, parsing: { ModeSetting(parsing: $0) }, get: { $0.mode },
                set: { $0.mode = $1 }),
            .integer(
                "mtreg", range: measurementTimeRange, meaning: "a measurement time (MTreg)",
                get: { $0.measurementTime }, set: { $0.measurementTime = $1 },
                unset: "chosen by automatic ranging"),
        ]),
        reading: TableValues(),
        settings: { values, section, decoder in
            // A mode already refused would only make the MTreg look wrong as well.
            guard values.mode != nil || !decoder.isGiven("mode", in: section) else { return .automatic }
            do throws(ConfigurationError) {
                return try Settings(mode: values.mode ?? .automatic, measurementTime: values.measurementTime)
            } catch {
                decoder.adopt(ConfigurationError(key: section.key(error.key), message: error.message))
                return .automatic
            }
        },
        values: { settings in
            TableValues(
                mode: settings.mode,
                measurementTime: settings.mode == .automatic ? nil : Int(settings.measurementTime))
        })

    /// The table as the file gives it: nil for a key not given (or refused).
    struct TableValues {
        var mode: ModeSetting?
        var measurementTime: Int?
    }

    static func probe(_ bus: any I2CBus, _ address: I2CAddress, _ clock: any Clock) -> ProbeFinding.Outcome? {
        let data: [UInt8]
        do {
            try bus.write([Opcode.powerOn], to: address)
            try bus.write([Opcode.reset], to: address)
            data = try bus.read(count: 2, from: address)
        } catch {
            return error.kind == .notAcknowledged ? nil : .problem(error)
        }
        guard data == [0, 0] else {
            let value = hexadecimal(UInt16(data[0]) << 8 | UInt16(data[1]), digits: 4)
            return .unidentified("answers, but its data did not clear on reset (0x\(value)): not a BH1750")
        }
        let sensor = BH1750(bus: bus, address: address, clock: clock)
        return .bh1750(reading: Result { () throws(SensorError) in try sensor.read(waitingOn: clock) })
    }
}

extension BH1750.ModeSetting {
    /// Every setting a configuration can choose, in the order they are listed to the user.
    public static let configurationChoices: [Self] = [.automatic] + BH1750.Mode.allCases.map(Self.fixed)

    /// "auto", "high", "high2" or "low": the key `mode` of `[sensor.bh1750]`.
    public var configurationText: String {
        switch self {
        case .automatic: "auto"
        case .fixed(.high): "high"
        case .fixed(.high2): "high2"
        case .fixed(.low): "low"
        }
    }
}
