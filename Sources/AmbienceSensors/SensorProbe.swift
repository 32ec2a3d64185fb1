import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// What `ambience probe` found at one address.
public struct ProbeFinding: Sendable {
    public enum Outcome: Sendable {
        /// Identified by its ID register; the reading (or why there is none) follows.
        case tsl2561(part: String, package: TSL2561.Package, reading: Result<Reading, SensorError>)
        /// Identified by behaviour: it takes the BH1750's commands and its data clears on reset.
        case bh1750(reading: Result<Reading, SensorError>)
        /// Identified by its ID registers (`identifiedBy` says which): the chip's name and reading.
        case identified(chip: String, identifiedBy: String, reading: Result<Reading, SensorError>)
        /// Something answers, but it is not a sensor this project drives.
        case unidentified(String)
        /// The address could not be probed (claimed by a kernel driver, an adapter limit…).
        case problem(I2CError)
    }

    public var address: I2CAddress
    public var outcome: Outcome

    public var isSensor: Bool {
        switch outcome {
        case .tsl2561, .bh1750, .identified: true
        case .unidentified, .problem: false
        }
    }
}

/// Looks for the sensors at their possible addresses and identifies what answers. Addresses where
/// nothing answers are left out; every other one is explained. Each chip's descriptor in
/// `Chips.all` says how it is identified.
public enum SensorProbe {
    /// The chips looked for on a bus, in the order chips sharing an address are asked.
    static let chips = Chips.all.filter { $0.probe != nil }.enumerated()
        .sorted { ($0.element.probeOrder, $0.offset) < ($1.element.probeOrder, $1.offset) }.map { $0.element }

    public static let addresses = Array(Set(chips.flatMap { $0.addressValues })).sorted()

    /// At each address, the first chip that can sit there and gives an outcome.
    public static func scan(_ bus: any I2CBus, clock: any Clock) -> [ProbeFinding] {
        addresses.compactMap { address in
            for chip in chips where chip.addressValues.contains(address) {
                if let outcome = chip.probe?(bus, address, clock) {
                    return ProbeFinding(address: address, outcome: outcome)
                }
            }
            return nil
        }
    }

    /// A chip its ID registers named, with a first reading.
    static func identified(_ chip: String, by: String, _ sensor: any LightSensor, _ clock: any Clock)
        -> ProbeFinding.Outcome
    {
        .identified(
            chip: chip, identifiedBy: by,
            reading: Result { () throws(SensorError) in try sensor.read(waitingOn: clock) })
    }

    /// Whether anything acknowledges a one-byte read at the address: harmless for these chips.
    static func answers(_ bus: any I2CBus, _ address: I2CAddress) -> Bool {
        (try? bus.read(count: 1, from: address)) != nil
    }
}
