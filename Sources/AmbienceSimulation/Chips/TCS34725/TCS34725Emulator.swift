import AmbienceCore
import AmbienceSensors

/// A TCS34725 at register level, as its datasheet describes it.
///
/// - Every transfer starts with a command byte: CMD (0x80) must be set; TYPE (bits 6:5) 00
///   repeats the one register, 01 auto-increments, 11 is a special function (the interrupt
///   clear, accepted and ignored); 10 is reserved.
/// - ENABLE PON | AEN (0x03) runs the RGBC converter: after the oscillator's 2.4 ms warm-up,
///   integrations follow one another, each replacing the four channels and setting AVALID.
///   Clearing AEN stops it and clears AVALID. ATIME and CONTROL apply from the next
///   integration.
/// - Counts come from the light's spectrum: a black body at the room's colour temperature
///   (`kelvin`), weighed by the datasheet's spectral responsivity of each channel
///   (`TCS34725Spectra`, infrared to 1000 nm included), at the chip's counts per lux. They are
///   floored and clamped at the integration's full scale.
/// - After power-on reset: ENABLE 0x00, ATIME 0xFF (2.4 ms), WTIME 0xFF, CONTROL 0x00 (1x),
///   STATUS 0, data 0, ID 0x44.
public final class TCS34725Emulator: I2CDeviceEmulator {
    public var light: LightSource
    /// The colour temperature of the light at a lux: `RoomColour.typicalKelvin` unless told.
    public var kelvin: (Double) -> Double
    /// How much longer than nominal an integration takes: a slow internal oscillator.
    public var integrationStretch: Double
    /// Rule breaks seen on the wire: a correct driver leaves this empty.
    public private(set) var protocolViolations: [String] = []

    private var registers = [UInt8](repeating: 0, count: 0x20)
    private var selected = 0
    private var autoIncrements = true
    /// ATIME and CONTROL, which the integration under way took at its start.
    /// The channels' shares of the last colour temperature converted under.
    private var shares: (kelvin: Double, values: [Double])?
    private var integration = ContinuousIntegration<Timing>(
        start: 0, setting: Timing(atime: 0xFF, control: 0))

    struct Timing {
        var atime: UInt8
        var control: UInt8
    }

    public init(
        integrationStretch: Double = 1, kelvin: @escaping (Double) -> Double = RoomColour.typicalKelvin,
        light: @escaping LightSource
    ) {
        precondition(integrationStretch >= 1)
        self.integrationStretch = integrationStretch
        self.kelvin = kelvin
        self.light = light
        powerOnReset(at: 0)
    }

    public var enableRegister: UInt8 { registers[0x00] }
    public var isRunning: Bool { registers[0x00] & 0x03 == 0x03 }
    /// Clear, red, green and blue as the data registers hold them.
    public var channelCounts: [UInt16] { [0x14, 0x16, 0x18, 0x1A].map(word) }

    public func powerOnReset(at time: Double) {
        registers = [UInt8](repeating: 0, count: 0x20)
        registers[0x01] = 0xFF
        registers[0x03] = 0xFF
        registers[0x12] = TCS34725.chipIDs[0]
        selected = 0
        autoIncrements = true
        integration.restart(at: time, setting: timing)
    }

    public func receive(_ bytes: [UInt8], at time: Double) {
        convert(until: time)
        guard let command = bytes.first else { return }
        guard command & 0x80 != 0 else {
            protocolViolations.append("command byte 0x\(hex(command)) without the CMD bit (0x80)")
            return
        }
        switch (command >> 5) & 0x03 {
        case 0b00, 0b01:
            selected = Int(command & 0x1F)
            autoIncrements = command & 0x20 != 0
            for (offset, value) in bytes.dropFirst().enumerated() {
                write(value, to: autoIncrements ? (selected + offset) & 0x1F : selected, at: time)
            }
        case 0b11:
            if bytes.count > 1 { protocolViolations.append("data after special function 0x\(hex(command))") }
        default:
            protocolViolations.append("command byte 0x\(hex(command)) with the reserved TYPE 10")
        }
    }

    public func transmit(count: Int, at time: Double) -> [UInt8] {
        convert(until: time)
        return (0..<count).map { offset in registers[autoIncrements ? (selected + offset) & 0x1F : selected] }
    }

    private var timing: Timing { Timing(atime: registers[0x01], control: registers[0x0F]) }

    private func write(_ value: UInt8, to register: Int, at time: Double) {
        switch register {
        case 0x00:
            let wasRunning = isRunning
            registers[0] = value & 0x1B
            // The oscillator's warm-up comes before the first integration.
            if !wasRunning && isRunning { integration.restart(at: time + 0.0024, setting: timing) }
            if registers[0] & 0x02 == 0 { registers[0x13] &= ~0x01 }
        case 0x01, 0x03, 0x04...0x07, 0x0C, 0x0D:
            registers[register] = value
        case 0x0F:
            if value & 0xFC != 0 { protocolViolations.append("CONTROL 0x\(hex(value)) sets reserved bits") }
            registers[register] = value & 0x03
        default:
            protocolViolations.append(
                "write of 0x\(hex(value)) to read-only register 0x\(hex(UInt8(register)))")
        }
    }

    private func seconds(_ timing: Timing) -> Double? {
        Double(256 - Int(timing.atime)) * 0.0024 * integrationStretch
    }

    /// Completes the integrations that ended by `time`.
    private func convert(until time: Double) {
        guard isRunning, let done = integration.complete(until: time, current: timing, seconds: seconds)
        else { return }
        storeConversion(done.setting, midpoint: done.midpoint)
    }

    private func storeConversion(_ timing: Timing, midpoint: Double) {
        let cycles = 256 - Int(timing.atime)
        let gain = [1.0, 4, 16, 60][Int(timing.control & 0x03)]
        let lux = max(0, light(midpoint))
        let countsPerLux = Double(cycles) * 2.4 * gain / TCS34725.deviceFactor * TCS34725Spectra.scale
        let fullScale = Double(min(65535, 1024 * cycles))
        let kelvin = kelvin(lux)
        // A room's colour seldom changes between conversions: its spectrum is integrated once.
        let values: [Double]
        if let cached = shares, cached.kelvin == kelvin {
            values = cached.values
        } else {
            values = Self.channelShares(kelvin: kelvin)
            shares = (kelvin, values)
        }
        for (register, share) in zip([0x14, 0x16, 0x18, 0x1A], values) {
            setWord(UInt16(min(fullScale, (lux * countsPerLux * share).rounded(.down))), at: register)
        }
        registers[0x13] |= 0x01
    }

    /// What each channel sees of a black body, per unit of its luminance: clear, red, green,
    /// blue.
    static func channelShares(kelvin: Double) -> [Double] {
        var channels = [0.0, 0, 0, 0]
        var luminance = 0.0
        for (index, response) in TCS34725Spectra.responsivity.enumerated() {
            let metres = Double(380 + 10 * index) * 1e-9
            let radiance =
                1
                / (metres * metres * metres * metres * metres
                    * (PortableMath.exp(0.014388 / (metres * kelvin)) - 1))
            channels[0] += radiance * response.0
            channels[1] += radiance * response.1
            channels[2] += radiance * response.2
            channels[3] += radiance * response.3
            if index < TCS34725Spectra.luminosity.count {
                luminance += radiance * TCS34725Spectra.luminosity[index]
            }
        }
        return channels.map { $0 / luminance }
    }

    private func word(at register: Int) -> UInt16 {
        UInt16(registers[register]) | UInt16(registers[register + 1]) << 8
    }

    private func setWord(_ value: UInt16, at register: Int) {
        registers[register] = UInt8(value & 0xFF)
        registers[register + 1] = UInt8(value >> 8)
    }
}

extension TCS34725Emulator {
    /// `simulate`'s TCS34725, in `ChipEmulators.all`: lamplight in the evening, daylight by day.
    public static let emulator = ChipEmulator(.tcs34725) { light in TCS34725Emulator(light: light) }
}
