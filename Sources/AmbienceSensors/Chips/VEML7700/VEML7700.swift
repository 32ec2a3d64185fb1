import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// The Vishay VEML7700 ambient light sensor at 0x10.
///
/// Registers are 16 bits, addressed by a command code, low byte first: SMBus word data, so
/// SMBus-only adapters do. A word write is one transfer [command, low, high]. On the wire:
/// - initialise: read word 0x07 (ID, low byte 0x81); write 0x00←CONF|0x0001 (shut down with the
///   new gain and integration time), 0x03←0x0000 (power saving off, so a result every
///   integration), 0x01←0xFFFF (ALS_WH: unused with interrupts off, and a marker: it powers up
///   as 0x0000), 0x00←CONF (power on: a fresh integration starts); wait one integration time.
/// - read: read word 0x01 (still 0xFFFF? a replugged chip reads 0x0000 and is initialised
///   again), read word 0x04 (ALS counts).
/// - a range change: 0x00←CONF|0x0001, 0x00←CONF, then a fresh wait, so the next result is
///   not a mix of the old and new settings.
public final class VEML7700: LightSensor {
    public let bus: any I2CBus
    public let address: I2CAddress
    public let settings: Settings
    private let clock: any Clock
    private var recovery: Recovery

    /// The range in use; with automatic ranging, the one the light last called for.
    public private(set) var range: Range
    private var rangeIndex = VEML7700.automaticStartIndex
    private var needsInitialisation = true
    /// When the data register first holds a conversion made with the current settings.
    private var dataReadyAt = 0.0
    /// Range changes made by the measurement under way.
    private var rangeChanges = 0

    /// At most this many range changes within one measurement: saturation, straight to the
    /// least sensitive range, then the one the light fits; light that changes during the
    /// measurement cannot make it loop.
    static let maximumRangeChanges = 2
    /// The application note's band: fewer counts than this is too coarse, more is where the
    /// response starts to bend.
    static let fewestCounts: UInt16 = 100
    static let mostCounts: UInt16 = 10_000
    /// Where a range change aims: half the band's top. See `preferredRange`.
    static let targetCounts = 5_000.0

    public init(
        bus: any I2CBus, address: I2CAddress = VEML7700.defaultAddress, settings: Settings = .automatic,
        clock: any Clock, retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.bus = bus
        self.address = address
        self.settings = settings
        self.clock = clock
        recovery = Recovery(policy: retryPolicy)
        if case .fixed(let fixed) = settings.range {
            range = fixed
        } else {
            range = Self.automaticRanges[Self.automaticStartIndex]
        }
    }

    public var description: String { "VEML7700 at \(bus.name) \(address)" }

    public func measure() throws(SensorError) -> SensorProgress {
        try recovery.measure(
            clock: clock, needsInitialisation: &needsInitialisation,
            initialise: { () throws(SensorError) in try initialiseChip() },
            collect: { () throws(SensorError) in try collect() })
    }

    // MARK: Measuring

    /// One step of the measurement under way: the counts once a conversion with the current
    /// settings is done, then a range change (a new conversion to come back for) or the reading.
    private func collect() throws(SensorError) -> SensorProgress {
        if clock.now < dataReadyAt { return .pending(until: dataReadyAt) }
        if try readWord(Register.highThreshold) != Self.marker {
            // Power was lost behind our back: the chip is back at its defaults, shut down.
            try initialiseChip()
            return .pending(until: dataReadyAt)
        }
        let counts = try readWord(Register.als)
        if settings.range == .automatic, rangeChanges < Self.maximumRangeChanges,
            let better = preferredRange(counts), better != rangeIndex
        {
            rangeIndex = better
            range = Self.automaticRanges[better]
            rangeChanges += 1
            try applyConfiguration()
            return .pending(until: dataReadyAt)
        }
        rangeChanges = 0
        return .reading(reading(counts))
    }

    /// Hysteresis: the range stays while the counts are within the application note's band,
    /// 100 to 10 000. Outside it, the driver goes to the most sensitive range where the same
    /// light gives at most 5 000 counts, which (neighbours being at most 4x apart) lands
    /// between 1 250 and 5 000: more than 12x above the band's floor and 2x below its top, so
    /// the light must change that much before the next change, and never back the same way.
    /// Saturated counts say nothing of the light, so they go to the least sensitive range.
    private func preferredRange(_ counts: UInt16) -> Int? {
        let last = Self.automaticRanges.count - 1
        if counts == UInt16.max { return last }
        guard counts < Self.fewestCounts || counts > Self.mostCounts else { return nil }
        let linearLux = Double(counts) * range.luxPerCount
        return Self.automaticRanges.firstIndex { linearLux / $0.luxPerCount <= Self.targetCounts } ?? last
    }

    private func reading(_ counts: UInt16) -> Reading {
        var text = range.description
        if settings.range == .automatic { text += " (auto)" }
        guard counts < UInt16.max else {
            // A lower bound: left linear, since the correction only ever raises the lux and its
            // polynomial runs away far past the counts it was fitted on.
            return Reading(
                lux: Double(counts) * range.luxPerCount, isSaturated: true, settings: text + ", saturated")
        }
        return Reading(lux: Self.lux(counts: counts, range: range), settings: text)
    }

    // MARK: Configuring

    private func initialiseChip() throws(SensorError) {
        rangeChanges = 0
        let id = try readWord(Register.id)
        guard id & 0xFF == Self.deviceID else {
            throw SensorError(
                .unexpectedChip(
                    "ID register 0x07 reads 0x\(hexadecimal(id, digits: 4)); a VEML7700 reads 0x81 in its low byte"
                ),
                sensor: description)
        }
        try writeWord(Register.configuration, range.configuration | Self.shutDown)
        try writeWord(Register.powerSaving, 0x0000)
        try writeWord(Register.highThreshold, Self.marker)
        try writeWord(Register.configuration, range.configuration)
        dataReadyAt = clock.now + range.settleSeconds
    }

    /// Shut down, then on with the new configuration: the integration restarts with it.
    private func applyConfiguration() throws(SensorError) {
        try writeWord(Register.configuration, range.configuration | Self.shutDown)
        try writeWord(Register.configuration, range.configuration)
        dataReadyAt = clock.now + range.settleSeconds
    }

    // MARK: Registers

    enum Register {
        static let configuration: UInt8 = 0x00
        static let highThreshold: UInt8 = 0x01
        static let lowThreshold: UInt8 = 0x02
        static let powerSaving: UInt8 = 0x03
        static let als: UInt8 = 0x04
        static let white: UInt8 = 0x05
        static let interrupt: UInt8 = 0x06
        static let id: UInt8 = 0x07
    }

    /// ALS_SD, bit 0 of ALS_CONF_0.
    static let shutDown: UInt16 = 0x0001
    /// Written to ALS_WH, whose power-on value is 0x0000.
    static let marker: UInt16 = 0xFFFF

    private func readWord(_ register: UInt8) throws(SensorError) -> UInt16 {
        try onBus(description) { () throws(I2CError) in
            try bus.readWordData(command: register, from: address)
        }
    }

    /// SMBus "write word data": the command, then the word low byte first.
    private func writeWord(_ register: UInt8, _ value: UInt16) throws(SensorError) {
        try onBus(description) { () throws(I2CError) in
            try bus.write([register, UInt8(value & 0xFF), UInt8(value >> 8)], to: address)
        }
    }
}
