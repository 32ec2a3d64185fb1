import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// The ams TSL2591 light-to-digital converter, at 0x29 only.
///
/// Every transfer starts with a command byte 0xA0 | register: CMD (bit 7) set, TRANSACTION
/// (bits 6:5) 01 for normal register access, which auto-increments through a multi-byte read.
/// On the wire:
/// - initialise: read byte 0xB2 (ID, must be 0x50); write 0xA0←0x01 (PON only: ALS off, so the
///   integration restarts), 0xA1←CONTROL (AGAIN << 4 | ATIME), 0xA0←0x03 (PON | AEN);
///   read byte 0xA0, expecting 0x03; wait one integration.
/// - read: read byte 0xA0 (still enabled? a replugged chip reads 0x00 and is initialised again),
///   then one 5-byte read from 0xB3: STATUS, C0DATAL, C0DATAH, C1DATAL, C1DATAH. One transfer
///   gives both channels of the same conversion, low byte of C0 first as the latching wants.
///   Without AVALID (STATUS bit 0) the driver comes back a little later, a bounded number of times.
/// - a range change is the initialisation's 0xA0←0x01, 0xA1←CONTROL, 0xA0←0x03, then a fresh
///   wait: dropping AEN clears AVALID, so no conversion with the old gain is taken for the new.
public final class TSL2591: LightSensor {
    public static var addresses: [I2CAddress] { chip.addressValues }
    public static let defaultAddress: I2CAddress = 0x29
    /// What the ID register (0x12) reads.
    public static let chipID: UInt8 = 0x50

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
    /// C1/C0 of the latest unsaturated reading: the spectrum assumed when a channel saturates.
    private var lastUnsaturatedRatio: Double?

    public init(
        bus: any I2CBus, address: I2CAddress = TSL2591.defaultAddress, settings: Settings = Settings(),
        clock: any Clock, retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.bus = bus
        self.address = address
        self.settings = settings
        self.clock = clock
        recovery = Recovery(policy: retryPolicy)
        registers = AmsRegisters(bus: bus, address: address, sensor: "TSL2591 at \(bus.name) \(address)")
        if case .fixed(let fixed) = settings.gain { gain = fixed } else { gain = .medium }
    }

    public var description: String { registers.sensor }

    /// Whether a TSL2591 answers at the address: its ID register reads 0x50. A TSL2561 at 0x29
    /// takes 0xB2 as a word read of its threshold register and does not read 0x50 there after
    /// power-up (it reads 0x00), so the two are told apart without writing anything.
    public static func identify(bus: any I2CBus, address: I2CAddress) throws(I2CError) -> Bool {
        try bus.readByteData(command: AmsRegisters.command(Register.id), from: address) == chipID
    }

    public func measure() throws(SensorError) -> SensorProgress {
        try recovery.measure(
            clock: clock, needsInitialisation: &needsInitialisation,
            initialise: { () throws(SensorError) in try configureChip() },
            collect: { () throws(SensorError) in try collect() })
    }

    // MARK: Measuring

    /// The datasheet gives 100 ms steps from an internal oscillator without a guaranteed
    /// maximum, so 10 % (and 2 ms) is allowed on top, and then AVALID is asked for
    /// (`AmsConversion`).
    private static let conversionMargin = 1.1

    private func collect() throws(SensorError) -> SensorProgress {
        if clock.now < dataReadyAt { return .pending(until: dataReadyAt) }
        if try registers.readByte(Register.enable) & Enable.on != Enable.on {
            // Powered down behind our back: a replugged chip comes back off, with its defaults.
            try configureChip()
            return .pending(until: dataReadyAt)
        }
        let block = try registers.readBlock(from: Register.status, count: 5)
        if let again = try conversion.lookAgain(
            status: block[0], integration: settings.integrationTime.seconds, now: clock.now,
            sensor: description)
        {
            return .pending(until: again)
        }
        let channel0 = UInt16(block[1]) | UInt16(block[2]) << 8
        let channel1 = UInt16(block[3]) | UInt16(block[4]) << 8
        if settings.gain == .automatic,
            let next = conversion.gainSwitch(
                from: gain,
                to: AmsConversion.preferredGain(
                    current: gain, brightest: Double(max(channel0, channel1)),
                    saturation: Double(settings.integrationTime.saturationCount)))
        {
            gain = next
            try applyControl()
            return .pending(until: dataReadyAt)
        }
        conversion.measurementStarts()
        return .reading(reading(channel0, channel1))
    }

    private func reading(_ channel0: UInt16, _ channel1: UInt16) -> Reading {
        let integration = settings.integrationTime
        let settingsText = "gain \(gain)\(settings.gain == .automatic ? " (auto)" : ""), \(integration)"
        let ceiling = integration.saturationCount
        let countsPerLux = Self.countsPerLux(gain: gain, integrationTime: integration)
        guard channel0 >= ceiling || channel1 >= ceiling else {
            if channel0 >= 32 { lastUnsaturatedRatio = Double(channel1) / Double(channel0) }
            let lux = Self.lux(
                channel0: channel0, channel1: channel1, gain: gain, integrationTime: integration)
            return Reading(lux: lux, settings: settingsText)
        }
        // A saturated C0 only says "at least this much". The formula grows with C0 for a given
        // infrared share, so the ceiling with the latest unsaturated share (daylight's 0.3
        // before any; at most 0.8, so the bound stays above 0) gives a lower bound.
        let ratio = min(lastUnsaturatedRatio ?? 0.3, 0.8)
        let channel0AtLeast = Double(max(channel0, ceiling))
        let lux = Self.lux(
            channel0: channel0AtLeast, channel1: channel0AtLeast * ratio, countsPerLux: countsPerLux)
        return Reading(lux: lux, isSaturated: true, settings: settingsText + ", saturated")
    }

    // MARK: Configuring

    private func configureChip() throws(SensorError) {
        conversion.measurementStarts()
        let id = try registers.readByte(Register.id)
        guard id == Self.chipID else {
            throw SensorError(
                .unexpectedChip(
                    "ID register 0x12 reads 0x\(hexadecimal(id, digits: 2)); a TSL2591 reads 0x50"),
                sensor: description)
        }
        try applyControl()
        let enable = try registers.readByte(Register.enable)
        guard enable & Enable.on == Enable.on else {
            throw SensorError(
                .unexpectedChip("ENABLE reads 0x\(hexadecimal(enable, digits: 2)) after power-up, not 0x03"),
                sensor: description)
        }
    }

    /// ALS off, new gain and integration, ALS on: the ADC starts a fresh integration with the
    /// new settings, and AVALID stays clear until it is done.
    private func applyControl() throws(SensorError) {
        let control = gain.registerBits | settings.integrationTime.registerBits
        try registers.writeByte(Register.enable, Enable.powerOnly)
        try registers.writeByte(Register.control, control)
        try registers.writeByte(Register.enable, Enable.on)
        conversion.restarted()
        dataReadyAt = clock.now + settings.integrationTime.seconds * Self.conversionMargin + 0.002
    }

    // MARK: Registers

    enum Register {
        static let enable: UInt8 = 0x00
        static let control: UInt8 = 0x01
        static let id: UInt8 = 0x12
        static let status: UInt8 = 0x13
    }

    enum Enable {
        static let powerOnly: UInt8 = 0x01
        /// PON | AEN.
        static let on: UInt8 = 0x03
    }
}
