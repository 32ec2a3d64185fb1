/// Every chip the daemon drives: the one list a new chip is registered in. Its order is the
/// order `kind` lists them in messages and `ambience check` writes their tables in.
public enum Chips {
    public static let all: [ChipDescriptor] = [
        BH1750.chip, TSL2561.chip, VEML7700.chip, TSL2591.chip, OPT3001.chip, IIOLightSensor.chip,
    ]

    /// The descriptor of a kind from `all`; every `SensorKind` a chip declares is there.
    public static func descriptor(_ kind: SensorKind) -> ChipDescriptor {
        guard let chip = all.first(where: { $0.kind == kind }) else {
            preconditionFailure("\(kind) is not in Chips.all")
        }
        return chip
    }
}
