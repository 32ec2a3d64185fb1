import AmbienceConfig
import AmbienceCore
import AmbienceI2C
import AmbienceSystem

extension SensorKind {
    public static let tsl2561 = SensorKind("tsl2561")
}

extension TSL2561.Settings: ChipSettings {
    public static var defaults: Self { Self() }
    public var model: SensorModel { .tsl2561(self) }

    public init?(_ model: SensorModel) {
        guard case .tsl2561(let settings) = model else { return nil }
        self = settings
    }
}

extension TSL2561 {
    /// Where the driver looks when no address is configured: ADDR floating.
    public static let defaultAddress: I2CAddress = 0x39

    /// `kind = "tsl2561"`, `[sensor.tsl2561]` with `gain` and `integration`; found by its ID
    /// register, after the TSL2591 at the address they share.
    public static let chip = ChipDescriptor(
        TSL2561.Settings.self, name: "TSL2561",
        addresses: [
            ChipAddress(0x29, "ADDR to GND"), ChipAddress(0x39, "ADDR floating"),
            ChipAddress(0x49, "ADDR to VDD"),
        ],
        defaultAddress: defaultAddress,
        table: ChipTable(
            ConfigurationTable([
                .choice(
                    "gain", meaning: "a TSL2561 gain", among: GainSetting.configurationChoices,
                    spelled: { $0.configurationText }, parsing: { GainSetting(parsing: $0) },
                    get: { $0.gain },
                    set: { $0.gain = $1 }),
                // The driver takes 13 and 14 for 13.7 too; the file is written with the datasheet's values.
                .milliseconds(
                    "integration", among: IntegrationTime.allCases, milliseconds: { $0.milliseconds },
                    get: { $0.integrationTime }, set: { $0.integrationTime = $1 }),
            ])),
        probe: { bus, address, clock in probe(bus, address, clock) },
        access: .i2c { settings, bus, address, clock in
            TSL2561(bus: bus, address: address, settings: settings, clock: clock)
        })

    /// Reading the ID register is harmless to any chip that may sit there.
    static func probe(_ bus: any I2CBus, _ address: I2CAddress, _ clock: any Clock) -> ProbeFinding.Outcome? {
        let id: UInt8
        do {
            id = try bus.readByteData(command: command(Register.id), from: address)
        } catch {
            return error.kind == .notAcknowledged ? nil : .problem(error)
        }
        guard let identity = identify(idRegister: id) else {
            return .unidentified(
                "answers, but its ID register reads 0x\(hexadecimal(id, digits: 2)): not a TSL2560/TSL2561")
        }
        let sensor = TSL2561(bus: bus, address: address, clock: clock)
        let reading = Result { () throws(SensorError) in try sensor.read(waitingOn: clock) }
        // An ID register is one byte: other chips read like one (a TMP105 at 0x49 reads 0x4B, a
        // TSL2560's). One that does not power up as a TSL2561 does is not taken for one.
        if case .failure(let failure) = reading, case .unexpectedChip(let why) = failure.kind {
            return .unidentified(
                "answers, and its ID register reads 0x\(hexadecimal(id, digits: 2)) as a \(identity.part)'s would, "
                    + "but \(why): not a TSL2560/TSL2561")
        }
        return .tsl2561(part: identity.part, package: identity.package, reading: reading)
    }
}

extension TSL2561.GainSetting {
    /// Every setting a configuration can choose, in the order they are listed to the user.
    public static let configurationChoices: [Self] = [.automatic, .fixed(.x1), .fixed(.x16)]

    /// "auto", "1x" or "16x": the key `gain` of `[sensor.tsl2561]`.
    public var configurationText: String {
        switch self {
        case .automatic: "auto"
        case .fixed(.x1): "1x"
        case .fixed(.x16): "16x"
        }
    }
}

extension TSL2561.IntegrationTime {
    /// 13.7, 101 or 402: the key `integration` of `[sensor.tsl2561]`, in milliseconds.
    public var milliseconds: Double {
        switch self {
        case .ms13point7: 13.7
        case .ms101: 101
        case .ms402: 402
        }
    }
}
