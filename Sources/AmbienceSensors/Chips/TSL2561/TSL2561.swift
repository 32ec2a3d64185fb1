import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// The TSL2561 (and TSL2560) light-to-digital converter at 0x29, 0x39 or 0x49.
///
/// Only SMBus byte-data and word-data transactions are used, so the driver runs on SMBus-only
/// adapters (and i2c-stub) as on plain I2C ones. On the wire:
/// - initialise: read byte 0x8A (ID); write 0x80←0x00 (power down, so integration restarts),
///   0x81←TIMING, 0x80←0x03 (power up); read byte 0x80, expecting 0x03; wait one integration.
/// - read: read byte 0x80 (still powered? a replugged chip reads 0x00 and is initialised again),
///   read word 0xAC (CH0), read word 0xAE (CH1).
/// - a gain change is the initialisation's power-down, TIMING, power-up, then a fresh wait.
public final class TSL2561: LightSensor {
    public static var addresses: [I2CAddress] { chip.addressValues }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let settings: Settings
    private let clock: any Clock
    private var recovery: Recovery

    /// Read from the ID register by the latest initialisation.
    public private(set) var package: Package?
    public private(set) var part: String?
    /// The gain in use; with automatic gain, the one the light last called for.
    public private(set) var gain: Gain
    private var needsInitialisation = true
    /// When the data registers first hold a conversion made with the current settings.
    private var dataReadyAt = 0.0
    /// CH1/CH0 of the latest unsaturated reading: the spectrum assumed when CH0 saturates.
    private var lastUnsaturatedRatio: Double?
    /// Gain switches made by the measurement under way.
    private var gainSwitches = 0

    public init(
        bus: any I2CBus, address: I2CAddress = 0x39, settings: Settings = Settings(), clock: any Clock,
        retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.bus = bus
        self.address = address
        self.settings = settings
        self.clock = clock
        recovery = Recovery(policy: retryPolicy)
        if case .fixed(let fixed) = settings.gain { gain = fixed } else { gain = .x16 }
    }

    public var description: String { "TSL2561 at \(bus.name) \(address)" }

    public func measure() throws(SensorError) -> SensorProgress {
        try recovery.measure(
            clock: clock, needsInitialisation: &needsInitialisation,
            initialise: { () throws(SensorError) in try configureChip() },
            collect: { () throws(SensorError) in try collect() })
    }

    // MARK: Measuring

    /// One step of the measurement under way: both channels once a conversion with the current
    /// settings is done, then a gain switch (a new conversion to come back for) or the reading.
    private func collect() throws(SensorError) -> SensorProgress {
        if clock.now < dataReadyAt { return .pending(until: dataReadyAt) }
        if try readByte(Register.control) & 0x03 != 0x03 {
            // Powered down behind our back: a replugged chip comes back off, with its defaults.
            try configureChip()
            return .pending(until: dataReadyAt)
        }
        let channel0 = try readWord(Register.data0Low)
        let channel1 = try readWord(Register.data1Low)
        // At most one switch each way: light that changes during the measurement cannot make it loop.
        if settings.gain == .automatic, gainSwitches < 2 {
            let wanted = preferredGain(channel0, channel1)
            if wanted != gain {
                gain = wanted
                gainSwitches += 1
                try applyTiming()
                return .pending(until: dataReadyAt)
            }
        }
        gainSwitches = 0
        return .reading(reading(channel0, channel1))
    }

    /// Hysteresis: leave 16x when a channel passes 90 % of full scale; come back to 16x only
    /// when the brighter channel at 1x is below 1/32 of that (45 % of full scale at 16x), so
    /// light between the two keeps whichever gain it finds.
    private func preferredGain(_ channel0: UInt16, _ channel1: UInt16) -> Gain {
        let brightest = Double(max(channel0, channel1))
        let fullScale = Double(settings.integrationTime.fullScaleCount)
        switch gain {
        case .x16: return brightest >= 0.9 * fullScale ? .x1 : .x16
        case .x1: return brightest < 0.9 * fullScale / 32 ? .x16 : .x1
        }
    }

    private func reading(_ channel0: UInt16, _ channel1: UInt16) -> Reading {
        let integration = settings.integrationTime
        let package = package ?? .tFnCl
        let settingsText = "gain \(gain)\(settings.gain == .automatic ? " (auto)" : ""), \(integration)"
        let saturation = integration.saturationCount
        guard channel0 > saturation || channel1 > saturation else {
            if channel0 >= 32 { lastUnsaturatedRatio = Double(channel1) / Double(channel0) }
            let lux = Self.lux(
                channel0: channel0, channel1: channel1, gain: gain, integrationTime: integration,
                package: package)
            return Reading(lux: lux, settings: settingsText)
        }
        // Saturated CH0 says only "at least this much light". The ratio it would give is too
        // high (CH1 keeps growing, CH0 cannot), so the bound uses the latest unsaturated
        // spectrum, or daylight's (about 0.3) before any. Capped at 0.8 so the bound is never 0.
        let ratio = min(lastUnsaturatedRatio ?? 0.3, 0.8)
        let scale = gain.scaleToNominal * integration.scaleToNominal
        let channel0AtLeast = Double(max(channel0, saturation)) * scale
        let lux = Self.lux(
            nominalChannel0: channel0AtLeast, nominalChannel1: channel0AtLeast * ratio, package: package)
        return Reading(lux: lux, isSaturated: true, settings: settingsText + ", saturated")
    }

    // MARK: Configuring

    private func configureChip() throws(SensorError) {
        gainSwitches = 0
        let id = try readByte(Register.id)
        guard let identity = Self.identify(idRegister: id) else {
            throw SensorError(
                .unexpectedChip(
                    "ID register 0x0A reads 0x\(hexadecimal(id, digits: 2)); a TSL2560/TSL2561 reads 0x0_, 0x1_, 0x4_ or 0x5_"
                ),
                sensor: description)
        }
        part = identity.part
        package = identity.package
        try applyTiming()
        let control = try readByte(Register.control)
        guard control & 0x03 == 0x03 else {
            throw SensorError(
                .unexpectedChip(
                    "CONTROL reads 0x\(hexadecimal(control, digits: 2)) after power-up, not 0x03"),
                sensor: description)
        }
    }

    /// Power down, set gain and integration, power up: the ADC starts a fresh integration with
    /// the new settings, so the next conversion is not a mix of old and new.
    private func applyTiming() throws(SensorError) {
        let timing = (gain == .x16 ? 0x10 : 0x00) | settings.integrationTime.registerValue
        try writeByte(Register.control, Control.powerOff)
        try writeByte(Register.timing, timing)
        try writeByte(Register.control, Control.powerOn)
        // The oscillator may run slow; 10 % more than nominal (and a millisecond) covers it.
        dataReadyAt = clock.now + settings.integrationTime.seconds * 1.1 + 0.001
    }

    // MARK: Registers

    enum Register {
        static let control: UInt8 = 0x0
        static let timing: UInt8 = 0x1
        static let id: UInt8 = 0xA
        static let data0Low: UInt8 = 0xC
        static let data1Low: UInt8 = 0xE
    }

    enum Control {
        static let powerOff: UInt8 = 0x00
        static let powerOn: UInt8 = 0x03
    }

    /// The command byte: CMD (0x80) must be set; WORD (0x20) asks for two bytes, low first.
    static func command(_ register: UInt8, word: Bool = false) -> UInt8 {
        0x80 | (word ? 0x20 : 0) | register
    }

    private func readByte(_ register: UInt8) throws(SensorError) -> UInt8 {
        try onBus(description) { () throws(I2CError) in
            try bus.readByteData(command: Self.command(register), from: address)
        }
    }

    private func readWord(_ register: UInt8) throws(SensorError) -> UInt16 {
        try onBus(description) { () throws(I2CError) in
            try bus.readWordData(command: Self.command(register, word: true), from: address)
        }
    }

    private func writeByte(_ register: UInt8, _ value: UInt8) throws(SensorError) {
        try onBus(description) { () throws(I2CError) in
            try bus.writeByteData(command: Self.command(register), value: value, to: address)
        }
    }
}
