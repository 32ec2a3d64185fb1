import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// The ams (TAOS) TCS34725 colour sensor, at 0x29: clear, red, green and blue channels under an
/// infrared-blocking filter, giving lux and the light's colour (`Reading.colour`).
///
/// Every transfer starts with a command byte 0xA0 | register: CMD (bit 7) set, TYPE (bits 6:5)
/// 01 for an auto-incrementing register access. On the wire:
/// - initialise: read byte 0xB2 (ID: 0x44 for the TCS34721/5, 0x4D for the TCS34723/7); write
///   0xA0←0x01 (PON only: the ADC stops, so the next integration starts fresh), 0xA1←ATIME,
///   0xAF←CONTROL (AGAIN), 0xA0←0x03 (PON | AEN); read byte 0xA0, expecting 0x03; wait the
///   oscillator's 2.4 ms warm-up and one integration.
/// - read: read byte 0xA0 (a replugged chip reads 0x00 and is initialised again), then one
///   9-byte read from 0xB3: STATUS, then CDATA, RDATA, GDATA, BDATA, low byte first. One
///   transfer gives the four channels of one conversion (reading the low byte latches the
///   rest). Without AVALID (STATUS bit 0) the driver comes back a little later, a bounded
///   number of times.
/// - a gain change is the initialisation's PON, CONTROL, PON | AEN, then a fresh wait: dropping
///   AEN clears AVALID, so no conversion at the old gain is taken for the new.
public final class TCS34725: LightSensor {
    public static var addresses: [I2CAddress] { chip.addressValues }
    public static let defaultAddress: I2CAddress = 0x29
    /// What the ID register (0x12) reads: the TCS34721 and TCS34725, and the TCS34723 and
    /// TCS34727 (the same chip with another I2C level).
    public static let chipIDs: [UInt8] = [0x44, 0x4D]

    public let bus: any I2CBus
    public let address: I2CAddress
    public let settings: Settings
    private let clock: any Clock
    private var recovery: Recovery
    private let registers: AmsRegisters

    /// The gain in use; with automatic gain, the one the light last called for.
    public private(set) var gain: Gain
    private var needsInitialisation = true
    /// When the data registers first hold a conversion made with the current settings.
    private var dataReadyAt = 0.0
    /// The late checks and gain switches of the measurement under way.
    private var conversion = AmsConversion()

    public init(
        bus: any I2CBus, address: I2CAddress = TCS34725.defaultAddress, settings: Settings = Settings(),
        clock: any Clock, retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.bus = bus
        self.address = address
        self.settings = settings
        self.clock = clock
        recovery = Recovery(policy: retryPolicy)
        registers = AmsRegisters(bus: bus, address: address, sensor: "TCS34725 at \(bus.name) \(address)")
        if case .fixed(let fixed) = settings.gain { gain = fixed } else { gain = .x4 }
    }

    public var description: String { registers.sensor }

    /// Whether a TCS3472x answers at the address: its ID register reads 0x44 or 0x4D. The
    /// TSL2591 at the same address reads 0x50 there, and a TSL2561 (a word read of a threshold
    /// register) 0x00 after power-up.
    public static func identify(bus: any I2CBus, address: I2CAddress) throws(I2CError) -> Bool {
        chipIDs.contains(try bus.readByteData(command: AmsRegisters.command(Register.id), from: address))
    }

    public func measure() throws(SensorError) -> SensorProgress {
        try recovery.measure(
            clock: clock, needsInitialisation: &needsInitialisation,
            initialise: { () throws(SensorError) in try configureChip() },
            collect: { () throws(SensorError) in try collect() })
    }

    // MARK: Measuring

    /// The datasheet's 2.4 ms cycle comes from an internal oscillator good to about 10 %: that
    /// much is allowed on top, and the 2.4 ms warm-up after power-on, then AVALID is asked for
    /// (`AmsConversion`).
    private static let conversionMargin = 1.1
    private static let warmUp = 0.0024

    private func collect() throws(SensorError) -> SensorProgress {
        if clock.now < dataReadyAt { return .pending(until: dataReadyAt) }
        if try registers.readByte(Register.enable) & Enable.on != Enable.on {
            // Powered down behind our back: a replugged chip comes back off, with its defaults.
            try configureChip()
            return .pending(until: dataReadyAt)
        }
        let block = try registers.readBlock(from: Register.status, count: 9)
        if let again = try conversion.lookAgain(
            status: block[0], integration: settings.integrationTime.seconds, now: clock.now,
            sensor: description)
        {
            return .pending(until: again)
        }
        func word(_ index: Int) -> Int { Int(block[index]) | Int(block[index + 1]) << 8 }
        let clear = word(1)
        // The clear channel is the largest: the one that saturates first.
        if settings.gain == .automatic,
            let next = conversion.gainSwitch(
                from: gain,
                to: AmsConversion.preferredGain(
                    current: gain, brightest: Double(clear),
                    saturation: Double(settings.integrationTime.saturationCount)))
        {
            gain = next
            try applySettings()
            return .pending(until: dataReadyAt)
        }
        conversion.measurementStarts()
        let channels = Channels(
            clear: Double(clear), red: Double(word(3)), green: Double(word(5)), blue: Double(word(7)))
        return .reading(reading(channels))
    }

    private func reading(_ channels: Channels) -> Reading {
        let integration = settings.integrationTime
        let settingsText = "gain \(gain)\(settings.gain == .automatic ? " (auto)" : ""), \(integration)"
        return Self.reading(channels, gain: gain.factor, cycles: integration.cycles, settings: settingsText)
    }

    // MARK: Configuring

    private func configureChip() throws(SensorError) {
        conversion.measurementStarts()
        let id = try registers.readByte(Register.id)
        guard Self.chipIDs.contains(id) else {
            throw SensorError(
                .unexpectedChip(
                    "ID register 0x12 reads 0x\(hexadecimal(id, digits: 2)); a TCS3472x reads 0x44 or 0x4D"),
                sensor: description)
        }
        try applySettings()
        let enable = try registers.readByte(Register.enable)
        guard enable & Enable.on == Enable.on else {
            throw SensorError(
                .unexpectedChip("ENABLE reads 0x\(hexadecimal(enable, digits: 2)) after power-up, not 0x03"),
                sensor: description)
        }
    }

    /// ADC off, new integration and gain, ADC on: a fresh integration with the new settings,
    /// and AVALID clear until it is done.
    private func applySettings() throws(SensorError) {
        try registers.writeByte(Register.enable, Enable.powerOnly)
        try registers.writeByte(Register.timing, settings.integrationTime.registerValue)
        try registers.writeByte(Register.control, gain.registerBits)
        try registers.writeByte(Register.enable, Enable.on)
        conversion.restarted()
        dataReadyAt =
            clock.now + Self.warmUp + settings.integrationTime.seconds * Self.conversionMargin + 0.002
    }

    // MARK: Registers

    enum Register {
        static let enable: UInt8 = 0x00
        static let timing: UInt8 = 0x01
        static let control: UInt8 = 0x0F
        static let id: UInt8 = 0x12
        static let status: UInt8 = 0x13
    }

    enum Enable {
        static let powerOnly: UInt8 = 0x01
        /// PON | AEN.
        static let on: UInt8 = 0x03
    }
}
