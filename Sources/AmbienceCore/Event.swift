/// What the engine tells its sinks. Times are the engine's monotonic seconds; each sink
/// renders them (wall-clock time in the daemon, the trace's seconds in `replay`).
public struct Event: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// The state changed.
        case change
        /// The current state, repeated for a reader that just connected.
        case current
        /// No valid sample for `fault_after`: the state is held, not guessed.
        case fault
        /// The first valid sample after a fault.
        case recovered
    }

    public enum Reason: String, Sendable {
        case startup, light, override, auto
    }

    public var kind: Kind
    /// nil only before the first valid sample or override.
    public var state: AmbienceState?
    public var previous: AmbienceState?
    /// False on the very first delivery, so nothing animates on appearance.
    public var animated: Bool
    /// Why the state is what it is; nil on `fault` and `recovered`.
    public var reason: Reason?
    /// The raw lux of the sample behind the event, if a sample caused it.
    public var lux: Double?
    public var filtered: Double?
    public var time: Double
    /// The state an override holds at the event; nil when the light decides.
    public var override: AmbienceState?
    /// Monotonic time at which that override ends by itself; nil when it holds until `auto`.
    public var overrideUntil: Double?
    /// Whether the sensor is faulted (§4.3) at the event: a reader that connects mid-fault knows.
    public var faulted: Bool
    /// The backlight's percent at the event (docs/backlight.md); nil when there is no backlight.
    /// The brightness engine's, not the theme engine's: the daemon fills it in.
    public var brightness: Int?
    /// Whether the display is awake or asleep at the event (docs/display-sleep.md), as its
    /// device says; nil when no `[display]` is configured. The daemon fills it in.
    public var display: DisplayPower?
    /// What the daemon asks of a Wayland session's outputs (`[display] device = "wayland"`), which
    /// `ambience kiosk` puts them to; nil for every other display. The daemon fills it in.
    public var displayAsked: DisplayPower?
    /// The room's colour temperature and the display's white (docs/whitepoint.md); nil when no
    /// `[whitepoint]` is configured. The daemon fills it in.
    public var whitePoint: WhitePointNews?

    public init(
        kind: Kind, state: AmbienceState?, previous: AmbienceState?, animated: Bool, reason: Reason?,
        lux: Double?, filtered: Double?, time: Double, override: AmbienceState? = nil,
        overrideUntil: Double? = nil, faulted: Bool = false, brightness: Int? = nil,
        display: DisplayPower? = nil
    ) {
        self.kind = kind
        self.state = state
        self.previous = previous
        self.animated = animated
        self.reason = reason
        self.lux = lux
        self.filtered = filtered
        self.time = time
        self.override = override
        self.overrideUntil = overrideUntil
        self.faulted = faulted
        self.brightness = brightness
        self.display = display
    }

    /// Seconds the override has left at monotonic `now`; nil when none holds or it has no end.
    public func overrideRemaining(at now: Double) -> Double? {
        guard override != nil, let overrideUntil else { return nil }
        return max(0, overrideUntil - now)
    }

    /// The same event announced as `current`, for a reader that connects later.
    public var asCurrent: Event {
        var copy = self
        copy.kind = .current
        copy.animated = false
        return copy
    }
}

/// What the lines say of the white point: the room's colour temperature as the engine smooths
/// it (nil before a reading of colour, or while the light is too dim or not white), and the
/// display's white (nil before the first). Whole kelvin.
public struct WhitePointNews: Equatable, Sendable {
    public var room: Int?
    public var display: Int?

    public init(room: Int?, display: Int?) {
        self.room = room
        self.display = display
    }
}
