import AmbienceSensors

/// A TSL2561 at register level, as its datasheet describes it.
///
/// - Every transfer starts with a command byte; CMD (0x80) must be set, the low nibble selects
///   the register, WORD (0x20) marks a two-byte access. Reads continue from the selected
///   register, low byte first.
/// - CONTROL 0x03 powers the ADC up and starts an integration; 0x00 powers it down. Powered
///   down, the registers still answer but nothing is converted.
/// - The ADC integrates continuously; each completed integration replaces DATA0/DATA1. A new
///   TIMING applies from the next integration: the one in progress finishes with the old one.
/// - Counts follow the light (sampled mid-integration) through the datasheet formula run
///   backwards for the chosen infrared ratio, scaled by gain and integration time, floored,
///   and clamped at the integration's full-scale count.
/// - After power-on reset: CONTROL 0x00, TIMING 0x02 (1x, 402 ms), data 0.
public final class TSL2561Emulator: I2CDeviceEmulator {
    public let package: TSL2561.Package
    public var light: LightSource
    /// CH1/CH0: how much of what CH0 sees is infrared. Daylight is near 0.3, incandescent
    /// light near 0.6. Must stay below 1.3, where the formula gives 0 lux whatever the light.
    public var infraredRatio: Double
    /// Fault injection: the data registers read these counts whatever the light.
    public var stuckCounts: (channel0: UInt16, channel1: UInt16)?
    /// Rule breaks seen on the wire (a command byte without CMD, a write to a read-only
    /// register): a correct driver leaves this empty.
    public private(set) var protocolViolations: [String] = []

    private var registers = [UInt8](repeating: 0, count: 16)
    private var selected = 0
    private var integration = ContinuousIntegration<UInt8>(start: 0, setting: 0x02)

    public init(package: TSL2561.Package = .tFnCl, infraredRatio: Double = 0.3, light: @escaping LightSource)
    {
        precondition(
            infraredRatio >= 0 && infraredRatio < 1.3, "the formula cannot be inverted past ratio 1.3")
        self.package = package
        self.infraredRatio = infraredRatio
        self.light = light
        powerOnReset(at: 0)
    }

    public var isPoweredUp: Bool { registers[0] & 0x03 == 0x03 }
    public var timingRegister: UInt8 { registers[1] }
    /// The counts the data registers hold now (what a read would return, stuck or not).
    public var channelCounts: (channel0: UInt16, channel1: UInt16) {
        (word(at: 0xC), word(at: 0xE))
    }

    /// TSL2561T/FN/CL reads 0x50, TSL2561CS 0x10 (revision 0).
    public var idRegister: UInt8 { package == .tFnCl ? 0x50 : 0x10 }

    public func powerOnReset(at time: Double) {
        registers = [UInt8](repeating: 0, count: 16)
        registers[0x1] = 0x02
        registers[0xA] = idRegister
        selected = 0
        integration.restart(at: time, setting: 0x02)
    }

    public func receive(_ bytes: [UInt8], at time: Double) {
        convert(until: time)
        guard let command = bytes.first else { return }
        guard command & 0x80 != 0 else {
            protocolViolations.append("command byte 0x\(hex(command)) without the CMD bit (0x80)")
            return
        }
        selected = Int(command & 0x0F)
        for (offset, value) in bytes.dropFirst().enumerated() {
            write(value, to: (selected + offset) & 0x0F, at: time)
        }
    }

    public func transmit(count: Int, at time: Double) -> [UInt8] {
        convert(until: time)
        return (0..<count).map { offset in
            let register = (selected + offset) & 0x0F
            if let stuckCounts, register >= 0xC {
                let value = register < 0xE ? stuckCounts.channel0 : stuckCounts.channel1
                return register & 1 == 0 ? UInt8(value & 0xFF) : UInt8(value >> 8)
            }
            return registers[register]
        }
    }

    private func write(_ value: UInt8, to register: Int, at time: Double) {
        switch register {
        case 0x0:
            let wasUp = isPoweredUp
            registers[0] = value & 0x03
            if value & 0x03 != 0x00 && value & 0x03 != 0x03 {
                protocolViolations.append("CONTROL written 0x\(hex(value)); only 0x00 and 0x03 are defined")
            }
            if !wasUp && isPoweredUp { integration.restart(at: time, setting: registers[1]) }
        case 0x1...0x6:
            registers[register] = value
        default:
            protocolViolations.append(
                "write of 0x\(hex(value)) to read-only register 0x\(hex(UInt8(register)))")
        }
    }

    /// Completes the integrations that ended by `time`.
    private func convert(until time: Double) {
        guard isPoweredUp,
            let done = integration.complete(
                until: time, current: registers[1], seconds: Self.integrationSeconds)
        else { return }
        storeConversion(timing: done.setting, midpoint: done.midpoint)
    }

    private func storeConversion(timing: UInt8, midpoint: Double) {
        guard let integration = Self.integrationTime(timing) else { return }
        let gain: TSL2561.Gain = timing & 0x10 != 0 ? .x16 : .x1
        let luxPerNominalCount = TSL2561.lux(
            nominalChannel0: 1, nominalChannel1: infraredRatio, package: package)
        let nominalChannel0 = max(0, light(midpoint)) / luxPerNominalCount
        let scale = 1 / (gain == .x16 ? 1 : 16.0) / Self.integrationScale(integration)
        let fullScale = Double(integration.fullScaleCount)
        let channel0 = min(fullScale, (nominalChannel0 * scale).rounded(.down))
        let channel1 = min(fullScale, (nominalChannel0 * infraredRatio * scale).rounded(.down))
        setWord(UInt16(channel0), at: 0xC)
        setWord(UInt16(channel1), at: 0xE)
    }

    /// 322/11 and 322/81: oscillator cycles of 402 ms over those of 13.7 and 101 ms.
    private static func integrationScale(_ integration: TSL2561.IntegrationTime) -> Double {
        switch integration {
        case .ms13point7: 322.0 / 11
        case .ms101: 322.0 / 81
        case .ms402: 1
        }
    }

    private static func integrationTime(_ timing: UInt8) -> TSL2561.IntegrationTime? {
        switch timing & 0x03 {
        case 0: .ms13point7
        case 1: .ms101
        case 2: .ms402
        default: nil  // manual integration: not emulated, nothing is converted
        }
    }

    private static func integrationSeconds(_ timing: UInt8) -> Double? {
        integrationTime(timing)?.seconds
    }

    private func word(at register: Int) -> UInt16 {
        let bytes = transmitWithoutConverting(register)
        return UInt16(bytes.0) | UInt16(bytes.1) << 8
    }

    private func transmitWithoutConverting(_ register: Int) -> (UInt8, UInt8) {
        if let stuckCounts {
            let value = register == 0xC ? stuckCounts.channel0 : stuckCounts.channel1
            return (UInt8(value & 0xFF), UInt8(value >> 8))
        }
        return (registers[register], registers[register + 1])
    }

    private func setWord(_ value: UInt16, at register: Int) {
        registers[register] = UInt8(value & 0xFF)
        registers[register + 1] = UInt8(value >> 8)
    }
}

func hex(_ value: UInt8) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return text.count == 1 ? "0" + text : text
}

extension TSL2561Emulator {
    /// `simulate`'s TSL2561 (the T/FN/CL package, daylight's infrared share), in `ChipEmulators.all`.
    public static let emulator = ChipEmulator(.tsl2561) { light in
        TSL2561Emulator(package: .tFnCl, infraredRatio: 0.3, light: light)
    }
}
