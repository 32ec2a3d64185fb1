/// The display's white point, following the room's colour, in simulated time (the caller passes
/// monotonic seconds, as it does to `Engine`). docs/whitepoint.md is its contract.
///
/// The room's correlated colour temperature, in mireds, moves a level (`DwellingLevel`): it
/// stays within `deadband` mireds and moves on `dwell` seconds of evidence beyond them, so a
/// passing shadow, a red car's glare or the screen's own light on the sensor moves nothing. A
/// reading that is no evidence of the room's white leaves the level and the display as they are
/// and starts the evidence again: a failed one, one dimmer than `dimBelow`, one that is not
/// near-white (`ColourTemperature` is nil for it). The display's white, read from the level
/// (`WhitePointConfiguration.target`), is approached one mired at a time, at most `rampRate`
/// mireds a second: a step of a fifth of what an eye tells apart, never a jump.
public struct WhitePointEngine: Sendable {
    public private(set) var configuration: WhitePointConfiguration
    /// The display's white now, in mireds; nil before the first near-white reading or override.
    public var output: Double? { ramp.output }
    /// The room's white, in mireds; nil before the first near-white reading.
    public var roomLevel: Double? { room.level }
    public private(set) var activeOverride: Override?
    private var room: DwellingLevel
    private var ramp: StepRamp
    private var atNight = false

    public struct Override: Equatable, Sendable {
        public var kelvin: Double
        /// Monotonic time at which the override ends by itself; nil holds until `auto`.
        public var until: Double?

        public init(kelvin: Double, until: Double?) {
            self.kelvin = kelvin
            self.until = until
        }
    }

    public enum Command: Equatable, Sendable {
        /// Show `kelvin` until `auto`, or for `duration` seconds.
        case hold(kelvin: Double, duration: Double?)
        /// Back to the room.
        case auto
    }

    /// The whites an override may ask for.
    public static let overrideKelvin: ClosedRange<Double> = 1000...15_000

    public init(configuration: WhitePointConfiguration = .roomWhite) {
        self.configuration = configuration
        room = DwellingLevel(
            timeConstant: configuration.timeConstant, dwell: configuration.dwell,
            deadband: configuration.deadband)
        ramp = StepRamp(rate: configuration.rampRate)
    }

    /// The display's white now, in kelvin, rounded; nil as `output` is.
    public var kelvin: Int? { output.map { Int((1e6 / $0).rounded()) } }

    /// The room's colour temperature as the engine holds it (its level, which moves only on
    /// dwelling evidence), in kelvin, rounded; nil before any.
    public var roomKelvin: Int? { room.level.map { Int((1e6 / $0).rounded()) } }

    /// What the output is heading for: the override's white, or the room's.
    public var target: Double? {
        if let activeOverride { return 1e6 / activeOverride.kelvin }
        return room.level.map { configuration.target(roomMired: $0, atNight: atNight) }
    }

    /// Whether the display's white is where it is heading: no ramp step is due.
    public var isSettled: Bool { ramp.nextStep(towards: target) == nil }

    /// When `advance(to:)` next has something to do: the next ramp step, or an override's end.
    public var nextDeadline: Double? {
        let step = ramp.nextStep(towards: target)
        guard let until = activeOverride?.until else { return step }
        return min(until, step ?? until)
    }

    /// Feeds one reading: the room's colour (nil for a failed or not near-white one) and its lux,
    /// with the minute of the local day for the night windows (nil: no window applies).
    public mutating func ingest(colour: ColourTemperature?, lux: Double?, at time: Double, minuteOfDay: Int?)
    {
        atNight =
            minuteOfDay.map { minute in configuration.night.contains { $0.contains(minute: minute) } }
            ?? false
        if let colour, let lux, lux >= configuration.dimBelow {
            room.judge(1e6 / colour.kelvin, at: time)
        } else {
            room.forgetEvidence()
        }
        advance(to: time)
    }

    /// Ends an expired override, and takes one ramp step when one is due.
    public mutating func advance(to time: Double) {
        if let until = activeOverride?.until, until <= time + StepRamp.slack {
            activeOverride = nil
        }
        ramp.advance(towards: target, at: time)
    }

    /// An override holds at once (it ramps like any change); `auto` goes back to the room.
    public mutating func apply(_ command: Command, at time: Double) {
        switch command {
        case .hold(let kelvin, let duration):
            let clamped = min(max(kelvin, Self.overrideKelvin.lowerBound), Self.overrideKelvin.upperBound)
            activeOverride = Override(kelvin: clamped, until: duration.map { time + $0 })
        case .auto:
            activeOverride = nil
        }
        advance(to: time)
    }

    /// Takes new settings (a reload): the room's level, the output and any override carry over;
    /// the evidence, judged against the old band, is dropped.
    public mutating func reconfigure(_ newConfiguration: WhitePointConfiguration) {
        configuration = newConfiguration
        ramp.rate = newConfiguration.rampRate
        room.timeConstant = newConfiguration.timeConstant
        room.dwell = newConfiguration.dwell
        room.deadband = newConfiguration.deadband
        room.forgetEvidence()
    }
}
