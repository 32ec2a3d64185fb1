import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// The TI OPT3001 ambient light sensor at 0x44, 0x45, 0x46 or 0x47 (ADDR to GND, VDD, SDA, SCL),
/// converting continuously.
///
/// Registers are 16 bits, most significant byte first, selected by a pointer byte; SMBus word
/// data would swap the bytes, so only plain writes and write-then-reads are used. On the wire:
/// - initialise: write 0x7E read 2 (0x54 0x49, "TI"); write 0x7F read 2 (0x30 0x01); write
///   0x01 MSB LSB (CONFIGURATION: 0xCC10 for automatic range and 800 ms, 0xC410 for 100 ms,
///   RN in the top nibble for a fixed range); write 0x01 read 2, expecting RN, CT and M back;
///   wait the maximum conversion time.
/// - read: write 0x01 read 2 (CONFIGURATION: a replugged chip reads M = 00, shut down, and is
///   initialised again; CRF says a conversion finished since the last look; OVF says it
///   overflowed), then write 0x00 read 2 (RESULT).
/// - a range change: none while measuring. With automatic full-scale the chip ranges itself
///   for every conversion, and lux = 0.01 × 2^E × R means the same whatever range it chose,
///   so the driver never switches anything and cannot hunt; a fixed range is written once, at
///   initialisation, in the same CONFIGURATION write.
public final class OPT3001: LightSensor {
    public static var addresses: [I2CAddress] { chip.addressValues }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let settings: Settings
    private let clock: any Clock
    private var recovery: Recovery

    /// The range the chip used for the latest reading (its own choice under automatic range).
    public private(set) var range: FullScale?
    private var needsInitialisation = true
    /// When a conversion with the current configuration has surely finished.
    private var dataReadyAt = 0.0
    /// Looks at CONFIGURATION that found no new conversion, in the measurement under way.
    private var notReadyLooks = 0

    public init(
        bus: any I2CBus, address: I2CAddress = OPT3001.defaultAddress, settings: Settings = Settings(),
        clock: any Clock, retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.bus = bus
        self.address = address
        self.settings = settings
        self.clock = clock
        recovery = Recovery(policy: retryPolicy)
    }

    public var description: String { "OPT3001 at \(bus.name) \(address)" }

    /// Whether the chip at `address` reads the OPT3001's manufacturer and device IDs: for
    /// `probe`, which must tell it from other chips that share 0x44–0x47.
    public static func identify(bus: any I2CBus, address: I2CAddress) -> Bool {
        do {
            let manufacturer = try readWord(bus, address, Register.manufacturerID)
            let device = try readWord(bus, address, Register.deviceID)
            return manufacturer == manufacturerID && device == deviceID
        } catch {
            return false
        }
    }

    public func measure() throws(SensorError) -> SensorProgress {
        try recovery.measure(
            clock: clock, needsInitialisation: &needsInitialisation,
            initialise: { () throws(SensorError) in try configureChip() },
            collect: { () throws(SensorError) in try collect() })
    }

    // MARK: Measuring

    private func collect() throws(SensorError) -> SensorProgress {
        if clock.now < dataReadyAt { return .pending(until: dataReadyAt) }
        let configuration = try readRegister(Register.configuration)
        let wanted = settings.configurationWord & Configuration.settingsMask
        // A chip that lost power comes back shut down (0xC810), so a replug shows here.
        if configuration & Configuration.settingsMask != wanted {
            try configureChip()
            return .pending(until: dataReadyAt)
        }
        // CRF is cleared by this very read, so a set CRF means a result not seen before: taken
        // first, since a retaken conversion (the chip aborts one after a jump in light) finishes late.
        guard configuration & Configuration.conversionReady != 0 else {
            // Twice more without one in a full conversion time means it no longer converts as
            // told: set it up again.
            if notReadyLooks >= 2 {
                try configureChip()
                return .pending(until: dataReadyAt)
            }
            notReadyLooks += 1
            dataReadyAt = clock.now + settings.conversionTime.maximumSeconds
            return .pending(until: dataReadyAt)
        }
        notReadyLooks = 0
        let result = try readRegister(Register.result)
        return .reading(reading(result: result, overflow: configuration & Configuration.overflow != 0))
    }

    private func reading(result: UInt16, overflow: Bool) -> Reading {
        let chosen = FullScale(number: Int(result >> 12))
        range = chosen
        // Full counts at the top range is saturation even if OVF was missed; either way the lux
        // is then only a lower bound.
        let saturated = overflow || (result & 0x0FFF == 0x0FFF && (chosen?.number == 11 || isFixed))
        var text = "\(chosen?.description ?? "exponent \(result >> 12)")"
        if settings.range == .automatic { text += " (auto)" }
        text += ", \(settings.conversionTime)"
        if saturated { text += ", saturated" }
        return Reading(lux: Self.lux(result: result), isSaturated: saturated, settings: text)
    }

    private var isFixed: Bool { settings.range != .automatic }

    // MARK: Configuring

    private func configureChip() throws(SensorError) {
        notReadyLooks = 0
        let manufacturer = try readRegister(Register.manufacturerID)
        let device = try readRegister(Register.deviceID)
        guard manufacturer == Self.manufacturerID, device == Self.deviceID else {
            throw SensorError(
                .unexpectedChip(
                    "IDs 0x7E/0x7F read 0x\(hexadecimal(manufacturer, digits: 4))/0x\(hexadecimal(device, digits: 4)); an OPT3001 reads 0x5449/0x3001"
                ),
                sensor: description)
        }
        let word = settings.configurationWord
        try onBus(description) { () throws(I2CError) in
            try bus.write([Register.configuration, UInt8(word >> 8), UInt8(word & 0xFF)], to: address)
        }
        let readBack = try readRegister(Register.configuration)
        guard readBack & Configuration.settingsMask == word & Configuration.settingsMask else {
            throw SensorError(
                .unexpectedChip(
                    "CONFIGURATION reads 0x\(hexadecimal(readBack, digits: 4)) after writing 0x\(hexadecimal(word, digits: 4))"
                ),
                sensor: description)
        }
        // The write restarted the conversion; the first result is ready a conversion later.
        dataReadyAt = clock.now + settings.conversionTime.maximumSeconds + 0.001
    }

    private func readRegister(_ register: UInt8) throws(SensorError) -> UInt16 {
        try onBus(description) { () throws(I2CError) in try Self.readWord(bus, address, register) }
    }

    /// Pointer write, repeated START, two bytes most significant first.
    private static func readWord(_ bus: any I2CBus, _ address: I2CAddress, _ register: UInt8) throws(I2CError)
        -> UInt16
    {
        let bytes = try bus.writeThenRead([register], readCount: 2, address: address)
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }
}
