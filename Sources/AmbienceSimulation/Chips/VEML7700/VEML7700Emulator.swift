import AmbienceSensors

/// A VEML7700 at register level, as its datasheet describes it.
///
/// - A write transfer is a command code (0x00–0x07) alone, selecting a register to read, or
///   the command code and a word, low byte first. A read returns the selected register's
///   word, low byte first. 0x04–0x07 are read-only.
/// - ALS_CONF_0 (0x00): ALS_SD (bit 0) set shuts the ADC down; the registers still answer and
///   the data registers keep their last counts. Clearing it starts an integration.
/// - While on, the ADC integrates continuously with ALS_IT (bits 9:6) and ALS_GAIN (bits
///   12:11); each completed integration replaces ALS (0x04). A new configuration applies from
///   the next integration: the one in progress finishes with the old one. Power saving
///   (0x03) would add a pause between integrations; it is not emulated.
/// - Counts follow the light sampled mid-integration, taken back through the application
///   note's non-linearity (the chip reads low above 1000 lx) and divided by the lux per count
///   of the gain and integration time, floored, clamped at 65 535.
/// - After power-on reset: ALS_CONF_0 0x0001 (shut down: the stricter of what revisions are
///   reported to do, so a driver that forgets to switch it on reads nothing), other registers
///   0x0000, ID 0xC481 (device 0x81 in the low byte; the high byte, the address option code,
///   is not checked by the driver).
public final class VEML7700Emulator: I2CDeviceEmulator {
    public var light: LightSource
    /// Fault injection: ALS reads these counts whatever the light.
    public var stuckCounts: UInt16?
    /// Rule breaks seen on the wire (an unknown command code, a write to a read-only register,
    /// a transfer of the wrong length): a correct driver leaves this empty.
    public private(set) var protocolViolations: [String] = []

    private var registers = [UInt16](repeating: 0, count: 8)
    private var selected = 0
    private var integration = ContinuousIntegration<UInt16>(start: 0, setting: 0x0001)

    public static let idRegister: UInt16 = 0xC481

    public init(light: @escaping LightSource) {
        self.light = light
        powerOnReset(at: 0)
    }

    public var configurationRegister: UInt16 { registers[0] }
    public var isShutDown: Bool { registers[0] & 0x0001 != 0 }
    public var powerSavingRegister: UInt16 { registers[3] }
    /// The counts a read of ALS would return now, stuck or not, without converting.
    public var alsCounts: UInt16 { stuckCounts ?? registers[4] }

    public func powerOnReset(at time: Double) {
        registers = [UInt16](repeating: 0, count: 8)
        registers[0] = 0x0001
        registers[7] = Self.idRegister
        selected = 0
        integration.restart(at: time, setting: registers[0])
    }

    public func receive(_ bytes: [UInt8], at time: Double) {
        convert(until: time)
        guard let command = bytes.first else { return }
        guard command <= 0x07 else {
            protocolViolations.append("command code 0x\(hex(command)); the VEML7700 has 0x00–0x07")
            return
        }
        selected = Int(command)
        switch bytes.count {
        case 1:
            return
        case 3:
            write(UInt16(bytes[1]) | UInt16(bytes[2]) << 8, to: selected, at: time)
        default:
            protocolViolations.append(
                "a write of \(bytes.count - 1) data bytes to 0x\(hex(command)); registers take a word")
        }
    }

    public func transmit(count: Int, at time: Double) -> [UInt8] {
        convert(until: time)
        if count != 2 {
            protocolViolations.append("a read of \(count) bytes; registers give a word")
        }
        let value = selected == 4 ? alsCounts : registers[selected]
        return (0..<count).map { offset in
            switch offset {
            case 0: UInt8(value & 0xFF)
            case 1: UInt8(value >> 8)
            default: 0xFF
            }
        }
    }

    private func write(_ value: UInt16, to register: Int, at time: Double) {
        guard register <= 0x03 else {
            protocolViolations.append(
                "write of 0x\(hex(UInt8(value >> 8)))\(hex(UInt8(value & 0xFF))) to read-only register 0x0\(register)"
            )
            return
        }
        let wasShutDown = isShutDown
        registers[register] = value
        if register == 0, wasShutDown, !isShutDown { integration.restart(at: time, setting: value) }
    }

    /// Completes the integrations that ended by `time`.
    private func convert(until time: Double) {
        guard !isShutDown,
            let done = integration.complete(
                until: time, current: registers[0], seconds: Self.integrationSeconds)
        else { return }
        storeConversion(configuration: done.setting, midpoint: done.midpoint)
    }

    private func storeConversion(configuration: UInt16, midpoint: Double) {
        guard let range = Self.range(configuration) else { return }
        let counts = (Self.uncorrected(max(0, light(midpoint))) / range.luxPerCount).rounded(.down)
        registers[4] = UInt16(min(65_535, counts))
        // WHITE sees more of the spectrum; nothing reads it, but it should not sit at 0.
        registers[5] = UInt16(min(65_535, counts * 1.5))
    }

    /// What the chip's linear response gives for real lux `lux`: the correction run backwards.
    /// Light between 1000 lx and the correction's 1075 lx at 1000 reads as 1000.
    public static func uncorrected(_ lux: Double) -> Double {
        let threshold = VEML7700.correctionThreshold
        guard lux > VEML7700.corrected(threshold.nextUp) else { return min(lux, threshold) }
        var low = threshold
        var high = lux
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if VEML7700.corrected(middle) < lux { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    static func range(_ configuration: UInt16) -> VEML7700.Range? {
        let gain: VEML7700.Gain
        switch configuration >> 11 & 0b11 {
        case 0b00: gain = .x1
        case 0b01: gain = .x2
        case 0b10: gain = .eighth
        default: gain = .quarter
        }
        let integration: VEML7700.IntegrationTime
        switch configuration >> 6 & 0b1111 {
        case 0b1100: integration = .ms25
        case 0b1000: integration = .ms50
        case 0b0000: integration = .ms100
        case 0b0001: integration = .ms200
        case 0b0010: integration = .ms400
        case 0b0011: integration = .ms800
        default: return nil  // undefined codes: nothing is converted
        }
        return VEML7700.Range(gain: gain, integrationTime: integration)
    }

    private static func integrationSeconds(_ configuration: UInt16) -> Double? {
        range(configuration)?.integrationTime.seconds
    }
}

extension VEML7700Emulator {
    /// `simulate`'s VEML7700, in `ChipEmulators.all`.
    public static let emulator = ChipEmulator(.veml7700) { light in VEML7700Emulator(light: light) }
}
