/// Every chip the daemon drives: the one list a new chip is registered in. Its order is the
/// order `kind` lists them in messages and `ambience check` writes their tables in.
public enum Chips {
    public static let all: [ChipDescriptor] = [
        BH1750.chip, TSL2561.chip, VEML7700.chip, TSL2591.chip, OPT3001.chip, TCS34725.chip,
        IIOLightSensor.chip,
    ]

    /// The descriptor of a kind from `all`; every `SensorKind` a chip declares is there.
    public static func descriptor(_ kind: SensorKind) -> ChipDescriptor {
        guard let chip = all.first(where: { $0.kind == kind }) else {
            preconditionFailure("\(kind.rawValue) is not in Chips.all")
        }
        return chip
    }
}

/// A chip with its settings: a case per chip in `Chips.all`, carrying that chip's own settings
/// type. An enum, not a protocol's existential, so that the compiler checks every use of it (and
/// Embedded Swift, which has no existentials of structs, builds it).
public enum SensorModel: Equatable, Sendable, CustomStringConvertible {
    case bh1750(BH1750.Settings)
    case tsl2561(TSL2561.Settings)
    case veml7700(VEML7700.Settings)
    case tsl2591(TSL2591.Settings)
    case opt3001(OPT3001.Settings)
    case tcs34725(TCS34725.Settings)
    case iio(IIOLightSensor.Settings)

    public var kind: SensorKind {
        switch self {
        case .bh1750: .bh1750
        case .tsl2561: .tsl2561
        case .veml7700: .veml7700
        case .tsl2591: .tsl2591
        case .opt3001: .opt3001
        case .tcs34725: .tcs34725
        case .iio: .iio
        }
    }
}
