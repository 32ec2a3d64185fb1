import AmbienceCore
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
/// nothing answers are left out; every other one is explained.
public enum SensorProbe {
    public static let addresses = Array(
        Set(TSL2561.addresses + BH1750.addresses + VEML7700.addresses + TSL2591.addresses + OPT3001.addresses)
    ).sorted()

    public static func scan(_ bus: any I2CBus, clock: any Clock) -> [ProbeFinding] {
        addresses.compactMap { address in
            let outcome: ProbeFinding.Outcome?
            if OPT3001.addresses.contains(address) {
                outcome = probeOPT3001(bus, address, clock)
            } else if VEML7700.addresses.contains(address) {
                outcome = probeVEML7700(bus, address, clock)
            } else if TSL2591.addresses.contains(address),
                let found = probeTSL2591(bus, address, clock)
            {
                outcome = found
            } else if TSL2561.addresses.contains(address) {
                outcome = probeTSL2561(bus, address, clock)
            } else {
                outcome = probeBH1750(bus, address, clock)
            }
            return outcome.map { ProbeFinding(address: address, outcome: $0) }
        }
    }

    /// Its manufacturer and device ID registers say "TI" and 0x3001; reading them changes nothing.
    private static func probeOPT3001(_ bus: any I2CBus, _ address: I2CAddress, _ clock: any Clock)
        -> ProbeFinding.Outcome?
    {
        guard OPT3001.identify(bus: bus, address: address) else {
            return answers(bus, address)
                ? .unidentified("answers, but its ID registers are not an OPT3001's") : nil
        }
        return identified(
            "OPT3001", by: "its manufacturer and device ID registers",
            OPT3001(bus: bus, address: address, clock: clock), clock)
    }

    /// Its ID register's low byte reads 0x81.
    private static func probeVEML7700(_ bus: any I2CBus, _ address: I2CAddress, _ clock: any Clock)
        -> ProbeFinding.Outcome?
    {
        guard VEML7700.identify(bus: bus, address: address) else {
            return answers(bus, address)
                ? .unidentified("answers, but its ID register is not a VEML7700's") : nil
        }
        return identified(
            "VEML7700", by: "its ID register", VEML7700(bus: bus, address: address, clock: clock), clock)
    }

    /// A chip its ID registers named, with a first reading.
    private static func identified(_ chip: String, by: String, _ sensor: any LightSensor, _ clock: any Clock)
        -> ProbeFinding.Outcome
    {
        .identified(
            chip: chip, identifiedBy: by,
            reading: Result { () throws(SensorError) in try sensor.read(waitingOn: clock) })
    }

    /// A TSL2591 and a TSL2561 can both sit at 0x29. The TSL2591's ID register is asked first:
    /// on a TSL2561 the same command byte is a word read of a threshold register, which is
    /// harmless and never reads 0x50 after power-up. Nil when it is not a TSL2591.
    private static func probeTSL2591(_ bus: any I2CBus, _ address: I2CAddress, _ clock: any Clock)
        -> ProbeFinding.Outcome?
    {
        guard (try? TSL2591.identify(bus: bus, address: address)) == true else { return nil }
        return identified(
            "TSL2591", by: "its ID register", TSL2591(bus: bus, address: address, clock: clock), clock)
    }

    /// Whether anything acknowledges a one-byte read at the address: harmless for these chips.
    private static func answers(_ bus: any I2CBus, _ address: I2CAddress) -> Bool {
        (try? bus.read(count: 1, from: address)) != nil
    }

    /// Reading the ID register is harmless to any chip that may sit there.
    private static func probeTSL2561(_ bus: any I2CBus, _ address: I2CAddress, _ clock: any Clock)
        -> ProbeFinding.Outcome?
    {
        let id: UInt8
        do {
            id = try bus.readByteData(command: TSL2561.command(TSL2561.Register.id), from: address)
        } catch {
            return error.kind == .notAcknowledged ? nil : .problem(error)
        }
        guard let identity = TSL2561.identify(idRegister: id) else {
            return .unidentified(
                "answers, but its ID register reads 0x\(hexadecimal(id, digits: 2)): not a TSL2560/TSL2561")
        }
        let sensor = TSL2561(bus: bus, address: address, clock: clock)
        return .tsl2561(
            part: identity.part, package: identity.package,
            reading: Result { () throws(SensorError) in try sensor.read(waitingOn: clock) })
    }

    /// The BH1750 has no ID: power it on and reset it; its data register must then read 0.
    private static func probeBH1750(_ bus: any I2CBus, _ address: I2CAddress, _ clock: any Clock)
        -> ProbeFinding.Outcome?
    {
        let data: [UInt8]
        do {
            try bus.write([BH1750.Opcode.powerOn], to: address)
            try bus.write([BH1750.Opcode.reset], to: address)
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
