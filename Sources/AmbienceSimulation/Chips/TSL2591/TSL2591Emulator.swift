import AmbienceSensors

/// A TSL2591 at register level, as its datasheet describes it.
///
/// - Every write starts with a command byte: CMD (0x80) must be set, TRANSACTION (bits 6:5) 01
///   selects a register (bits 4:0) for normal access; 11 is a special function (interrupt
///   clears, which only touch interrupt state: accepted and ignored); 00 and 10 are reserved.
///   Reads continue from the selected register, which auto-increments.
/// - ENABLE PON | AEN (0x03) runs the ALS: integrations follow one another, each replacing
///   C0DATA/C1DATA and setting AVALID. Clearing AEN stops it and clears AVALID; a new CONTROL
///   applies from the next integration, the one under way finishes with the old one.
/// - CONTROL bit 7 (SRESET) resets the chip as power-on does.
/// - Counts follow the light (sampled mid-integration) through the lux formula run backwards
///   for the chosen infrared share, floored and clamped at the integration's full scale.
/// - After power-on reset: ENABLE 0x00, CONTROL 0x00 (1x, 100 ms), STATUS 0, data 0, ID 0x50.
public final class TSL2591Emulator: I2CDeviceEmulator {
    public var light: LightSource
    /// C1/C0: the infrared share of what C0 sees. Daylight is near 0.3, incandescent near 0.6.
    /// Below 1: the formula gives 0 lux from there whatever the light.
    public var infraredRatio: Double
    /// How much longer than nominal an integration takes: a slow internal oscillator.
    public var integrationStretch: Double
    /// Rule breaks seen on the wire: a correct driver leaves this empty.
    public private(set) var protocolViolations: [String] = []

    private var registers = [UInt8](repeating: 0, count: 0x20)
    private var selected = 0
    private var integration = ContinuousIntegration<UInt8>(start: 0, setting: 0)

    public init(infraredRatio: Double = 0.3, integrationStretch: Double = 1, light: @escaping LightSource) {
        precondition(infraredRatio >= 0 && infraredRatio < 1, "the formula gives 0 lux from ratio 1 on")
        precondition(integrationStretch >= 1)
        self.infraredRatio = infraredRatio
        self.integrationStretch = integrationStretch
        self.light = light
        powerOnReset(at: 0)
    }

    public var enableRegister: UInt8 { registers[0x00] }
    public var controlRegister: UInt8 { registers[0x01] }
    public var isRunning: Bool { registers[0x00] & 0x03 == 0x03 }
    public var channelCounts: (channel0: UInt16, channel1: UInt16) { (word(at: 0x14), word(at: 0x16)) }

    public func powerOnReset(at time: Double) {
        registers = [UInt8](repeating: 0, count: 0x20)
        registers[0x12] = TSL2591.chipID
        selected = 0
        integration.restart(at: time, setting: 0)
    }

    public func receive(_ bytes: [UInt8], at time: Double) {
        convert(until: time)
        guard let command = bytes.first else { return }
        guard command & 0x80 != 0 else {
            protocolViolations.append("command byte 0x\(hex(command)) without the CMD bit (0x80)")
            return
        }
        switch (command >> 5) & 0x03 {
        case 0b01:
            selected = Int(command & 0x1F)
            for (offset, value) in bytes.dropFirst().enumerated() {
                write(value, to: (selected + offset) & 0x1F, at: time)
            }
        case 0b11:
            if bytes.count > 1 { protocolViolations.append("data after special function 0x\(hex(command))") }
        default:
            protocolViolations.append("command byte 0x\(hex(command)) with a reserved TRANSACTION")
        }
    }

    public func transmit(count: Int, at time: Double) -> [UInt8] {
        convert(until: time)
        return (0..<count).map { offset in registers[(selected + offset) & 0x1F] }
    }

    private func write(_ value: UInt8, to register: Int, at time: Double) {
        switch register {
        case 0x00:
            let wasRunning = isRunning
            registers[0] = value & 0xD3
            if !wasRunning && isRunning { integration.restart(at: time, setting: registers[1]) }
            if registers[0] & 0x02 == 0 { registers[0x13] &= ~0x01 }
        case 0x01:
            if value & 0x80 != 0 {
                powerOnReset(at: time)
                return
            }
            if value & 0x07 > 5 { protocolViolations.append("ATIME 0x\(hex(value & 0x07)) is reserved") }
            registers[1] = value & 0x37
        case 0x04...0x0C:
            registers[register] = value
        default:
            protocolViolations.append(
                "write of 0x\(hex(value)) to read-only register 0x\(hex(UInt8(register)))")
        }
    }

    private func seconds(_ control: UInt8) -> Double? {
        let atime = Int(control & 0x07)
        guard atime <= 5 else { return nil }
        return Double(atime + 1) * 0.1 * integrationStretch
    }

    /// Completes the integrations that ended by `time`.
    private func convert(until time: Double) {
        guard isRunning,
            let done = integration.complete(until: time, current: registers[1], seconds: seconds)
        else { return }
        storeConversion(control: done.setting, midpoint: done.midpoint)
    }

    private func storeConversion(control: UInt8, midpoint: Double) {
        guard let gain = TSL2591.Gain(rawValue: Int(control >> 4) & 0x03),
            let integration = TSL2591.IntegrationTime(rawValue: Int(control & 0x07))
        else { return }
        // lux = C0 (1 − r)² / CPL for C1 = r·C0, so C0 = lux · CPL / (1 − r)².
        let countsPerLux = TSL2591.countsPerLux(gain: gain, integrationTime: integration)
        let channel0 = max(0, light(midpoint)) * countsPerLux / ((1 - infraredRatio) * (1 - infraredRatio))
        let fullScale = Double(integration.fullScaleCount)
        setWord(UInt16(min(fullScale, channel0.rounded(.down))), at: 0x14)
        setWord(UInt16(min(fullScale, (channel0 * infraredRatio).rounded(.down))), at: 0x16)
        registers[0x13] |= 0x01
    }

    private func word(at register: Int) -> UInt16 {
        UInt16(registers[register]) | UInt16(registers[register + 1]) << 8
    }

    private func setWord(_ value: UInt16, at register: Int) {
        registers[register] = UInt8(value & 0xFF)
        registers[register + 1] = UInt8(value >> 8)
    }
}

extension TSL2591Emulator {
    /// `simulate`'s TSL2591, in `ChipEmulators.all`.
    public static let emulator = ChipEmulator(.tsl2591) { light in TSL2591Emulator(light: light) }
}
