import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// The BH1750 ambient light sensor at 0x23 or 0x5C, in a continuous mode.
///
/// Every command is a one-byte write and the result a plain two-byte read (high byte first):
/// the chip has no registers to address, so it needs an adapter that speaks plain I2C.
/// On the wire:
/// - initialise: 0x01 (power on), 0x07 (reset the data register), 0x40|MT[7:5], 0x60|MT[4:0],
///   then the mode's opcode (0x10 H-res, 0x11 H-res2, 0x13 L-res), which starts measuring with
///   the new MTreg; wait the mode's maximum measurement time scaled by MTreg/69.
/// - read: two bytes.
/// - a range change, or a re-assertion after a suspicious 0: 0x01, the two MTreg bytes, the mode.
public final class BH1750: LightSensor {
    public static var addresses: [I2CAddress] { chip.addressValues }

    /// Automatic ranging, most sensitive first; each range's full scale is 7.4, 55 and 122 klx.
    /// Neighbours overlap by more than 2×, which the hysteresis below needs.
    static let automaticRanges: [(mode: Mode, measurementTime: UInt8)] = [
        (.high2, 254), (.high, 69), (.high, 31),
    ]

    public let bus: any I2CBus
    public let address: I2CAddress
    public let settings: Settings
    private let clock: any Clock
    private var recovery: Recovery
    /// How long a reading of 0 may go on before the configuration is sent again.
    private let reassertInterval: Double

    public private(set) var mode: Mode
    public private(set) var measurementTime: UInt8
    private var rangeIndex = 1
    private var needsInitialisation = true
    private var dataReadyAt = 0.0
    private var configuredAt = -Double.infinity
    private var lastCounts: UInt16?
    /// The measurement under way: range changes made (bounded, so light that changes during
    /// it cannot make it loop) and whether a reading of 0 was re-asserted.
    private var rangeChanges = 0
    private var reasserted = false

    public init(
        bus: any I2CBus, address: I2CAddress = 0x23, settings: Settings = .automatic, clock: any Clock,
        retryPolicy: RetryPolicy = RetryPolicy(), reassertInterval: Double = 1
    ) {
        self.bus = bus
        self.address = address
        self.settings = settings
        self.clock = clock
        self.reassertInterval = reassertInterval
        recovery = Recovery(policy: retryPolicy)
        if case .fixed(let fixed) = settings.mode {
            mode = fixed
            measurementTime = settings.measurementTime
        } else {
            (mode, measurementTime) = Self.automaticRanges[rangeIndex]
        }
    }

    public var description: String { "BH1750 at \(bus.name) \(address)" }

    public func measure() throws(SensorError) -> SensorProgress {
        try recovery.measure(
            clock: clock, needsInitialisation: &needsInitialisation,
            initialise: { () throws(SensorError) in try initialiseChip() },
            collect: { () throws(SensorError) in try collect() })
    }

    // MARK: Measuring

    /// One step of the measurement under way: the counts once the chip has converted, then a
    /// range change or a re-assertion (each a new conversion to come back for), or the reading.
    private func collect() throws(SensorError) -> SensorProgress {
        if clock.now < dataReadyAt { return .pending(until: dataReadyAt) }
        let counts = try readCounts()
        if counts == 0 && !reasserted {
            // The chip has no register to read back, and one that lost power reads 0 until
            // told to measure again. A fall to exactly 0 is checked at once; a 0 that lasts
            // is re-asserted now and then without waiting, in case the chip came back dark.
            if let last = lastCounts, last != 0 {
                reasserted = true
                try sendConfiguration(wait: true)
                return .pending(until: dataReadyAt)
            }
            if clock.now - configuredAt >= reassertInterval {
                try sendConfiguration(wait: false)
            }
        }
        lastCounts = counts
        if settings.mode == .automatic, rangeChanges < Self.automaticRanges.count,
            let better = preferredRange(counts), better != rangeIndex
        {
            rangeIndex = better
            (mode, measurementTime) = Self.automaticRanges[better]
            rangeChanges += 1
            try sendConfiguration(wait: true)
            return .pending(until: dataReadyAt)
        }
        rangeChanges = 0
        reasserted = false
        let saturated = counts == UInt16.max
        var text = "\(mode), MTreg \(measurementTime)"
        if settings.mode == .automatic { text += " (auto)" }
        if saturated { text += ", saturated" }
        return .reading(
            Reading(
                lux: Self.lux(counts: counts, mode: mode, measurementTime: measurementTime),
                isSaturated: saturated, settings: text))
    }

    /// Up a range at 90 % of full scale (straight to the least sensitive when saturated); down
    /// to the most sensitive range the light fits at 45 % of its full scale. A level between
    /// keeps the range it has, so the ranging does not hunt.
    private func preferredRange(_ counts: UInt16) -> Int? {
        let last = Self.automaticRanges.count - 1
        if counts == UInt16.max { return last }
        if Double(counts) >= 0.9 * 65535 { return min(rangeIndex + 1, last) }
        let lux = Self.lux(counts: counts, mode: mode, measurementTime: measurementTime)
        for candidate in 0..<rangeIndex {
            let range = Self.automaticRanges[candidate]
            let fullScale = Self.lux(counts: .max, mode: range.mode, measurementTime: range.measurementTime)
            if lux < 0.45 * fullScale { return candidate }
        }
        return nil
    }

    // MARK: Configuring

    private func initialiseChip() throws(SensorError) {
        rangeChanges = 0
        reasserted = false
        try send(Opcode.powerOn)
        try send(Opcode.reset)
        lastCounts = nil
        try sendConfiguration(wait: true, powerOn: false)
    }

    /// MTreg first, then the mode: the datasheet's order, since a new MTreg takes effect with
    /// the next measurement command.
    private func sendConfiguration(wait: Bool, powerOn: Bool = true) throws(SensorError) {
        if powerOn { try send(Opcode.powerOn) }
        try send(Opcode.measurementTimeHigh | measurementTime >> 5)
        try send(Opcode.measurementTimeLow | measurementTime & 0x1F)
        try send(mode.opcode)
        configuredAt = clock.now
        if wait {
            dataReadyAt =
                clock.now + Self.maximumMeasurementSeconds(mode: mode, measurementTime: measurementTime)
                + 0.001
        }
    }

    enum Opcode {
        static let powerDown: UInt8 = 0x00
        static let powerOn: UInt8 = 0x01
        static let reset: UInt8 = 0x07
        static let measurementTimeHigh: UInt8 = 0x40
        static let measurementTimeLow: UInt8 = 0x60
    }

    private func send(_ opcode: UInt8) throws(SensorError) {
        try onBus(description) { () throws(I2CError) in try bus.write([opcode], to: address) }
    }

    private func readCounts() throws(SensorError) -> UInt16 {
        let bytes = try onBus(description) { () throws(I2CError) in try bus.read(count: 2, from: address) }
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }
}
