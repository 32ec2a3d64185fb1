import AmbienceConfig
import AmbienceCore
import AmbienceSystem

extension SensorKind {
    public static let opt3001 = SensorKind("opt3001")
}

extension OPT3001.Settings: ChipSettings {
    public static var defaults: Self { Self() }
    public var model: SensorModel { .opt3001(self) }

    public init?(_ model: SensorModel) {
        guard case .opt3001(let settings) = model else { return nil }
        self = settings
    }
}

extension OPT3001 {
    /// `kind = "opt3001"`, `[sensor.opt3001]` with `range` and `integration` (the datasheet's
    /// conversion time); found by its ID registers. Without the table: the chip ranges itself
    /// (automatic full-scale), 800 ms conversions.
    public static let chip = ChipDescriptor(
        OPT3001.Settings.self, name: "OPT3001",
        addresses: [
            ChipAddress(0x44, "ADDR to GND"), ChipAddress(0x45, "ADDR to VDD"),
            ChipAddress(0x46, "ADDR to SDA"),
            ChipAddress(0x47, "ADDR to SCL"),
        ],
        defaultAddress: defaultAddress,
        table: ChipTable(
            ConfigurationTable([
                .value(
                    "range", read: { _, section, decoder in decodeRange(section, decoder: &decoder) },
                    write: { range in
                        switch range {
                        case .automatic: ConfigurationFormat.string("auto")
                        case .fixed(let scale): String(scale.number)
                        }
                    }, get: { $0.range }, set: { $0.range = $1 }),
                .milliseconds(
                    "integration", among: ConversionTime.allCases, milliseconds: { $0.milliseconds },
                    get: { $0.conversionTime }, set: { $0.conversionTime = $1 }),
            ])),
        probe: { bus, address, clock in
            // Its manufacturer and device ID registers say "TI" and 0x3001; reading them changes nothing.
            guard identify(bus: bus, address: address) else {
                return SensorProbe.answers(bus, address)
                    ? .unidentified("answers, but its ID registers are not an OPT3001's") : nil
            }
            return SensorProbe.identified(
                "OPT3001", by: "its manufacturer and device ID registers",
                OPT3001(bus: bus, address: address, clock: clock), clock)
        },
        access: .i2c { settings, bus, address, clock in
            OPT3001(bus: bus, address: address, settings: settings, clock: clock)
        })

    /// "auto", or the number of a full-scale range (0 holds 40.95 lx, each next one twice as much).
    static func decodeRange(_ section: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder)
        -> RangeSetting?
    {
        let meaning = "\"auto\" or a full-scale range number from 0 to 11"
        switch decoder.wordOrInteger("range", in: section, word: "auto", meaning: meaning) {
        case nil: return nil
        case .word?: return .automatic
        case .integer?: break
        }
        return decoder.integer("range", in: section, range: 0...11, meaning: "a full-scale range number")
            .flatMap(FullScale.init(number:)).map(RangeSetting.fixed)
    }
}
