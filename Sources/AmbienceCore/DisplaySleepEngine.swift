/// When the display sleeps and wakes with the room, in simulated time (the caller passes
/// monotonic seconds, as it does to `Engine`). docs/display-sleep.md is its contract.
///
/// The room decides `automatic`; an override, while it holds, decides `output`:
/// - it sleeps once the smoothed light (the theme engine's moving average) has been below
///   `sleepBelow` at every sample for `sleepAfter`, outside the `awake` windows;
/// - it wakes once every reading has been above `wakeAbove` for `wakeAfter`, at once on a touch
///   (or any sign of someone there), and at the start of an `awake` window.
/// A failed reading is no evidence either way: both runs of evidence start again. A shadow or a
/// finger over the sensor is far shorter than `sleepAfter`; a flicker or a passing car's lights
/// are shorter than `wakeAfter`, and light between the two levels moves nothing.
///
/// The room's judgement goes on under an override, so when the override ends the display is as
/// the room has been meanwhile: `display on for 1h` in a dark room sleeps when the hour is up.
public struct DisplaySleepEngine: Sendable {
    public private(set) var configuration: DisplaySleepConfiguration
    /// What the room says.
    public private(set) var automatic: DisplayPower = .on
    /// Why `automatic` is what it is.
    public private(set) var automaticReason: Reason = .startup
    public private(set) var activeOverride: Override?

    public enum Reason: String, Sendable {
        case startup, dark, light, touch, window, override, auto
    }

    public struct Override: Equatable, Sendable {
        public var power: DisplayPower
        /// Monotonic time at which the override ends by itself; nil holds until `auto`.
        public var until: Double?

        public init(power: DisplayPower, until: Double?) {
            self.power = power
            self.until = until
        }
    }

    public enum Command: Equatable, Sendable {
        /// On or off until `auto`, or for `duration` seconds.
        case hold(DisplayPower, duration: Double?)
        /// Back to the room.
        case auto
    }

    /// Since when the smoothed light has been below `sleepBelow` at every sample.
    private var darkSince: Double?
    /// Since when every reading has been above `wakeAbove`.
    private var lightSince: Double?

    public init(configuration: DisplaySleepConfiguration = .darkRoom) {
        self.configuration = configuration
    }

    /// What the display should show now: the override's wish, or the room's.
    public var output: DisplayPower { activeOverride?.power ?? automatic }

    /// Why `output` is what it is.
    public var reason: Reason { activeOverride == nil ? automaticReason : .override }

    /// When `advance(to:)` next has something to do: an override's end. The room's changes
    /// come with samples.
    public var nextDeadline: Double? { activeOverride?.until }

    /// Feeds one sample: its reading (nil when the read failed), the moving average after it,
    /// and the minute of the local day it was taken in (nil when the wall clock is unknown, so
    /// no window applies).
    public mutating func ingest(lux: Double?, filtered: Double?, at time: Double, minuteOfDay: Int?) {
        advance(to: time)
        if let lux, lux.isFinite {
            let smoothed = filtered ?? lux
            darkSince = smoothed < configuration.sleepBelow ? (darkSince ?? time) : nil
            lightSince = lux > configuration.wakeAbove ? (lightSince ?? time) : nil
        } else {
            darkSince = nil
            lightSince = nil
        }
        let inWindow =
            minuteOfDay.map { minute in
                configuration.awake.contains { $0.contains(minute: minute) }
            } ?? false
        switch automatic {
        case .on:
            if !inWindow, let since = darkSince, time - since >= configuration.sleepAfter {
                set(.off, .dark)
            }
        case .off:
            if inWindow {
                set(.on, .window)
            } else if let since = lightSince, time - since >= configuration.wakeAfter {
                set(.on, .light)
            }
        }
    }

    /// The display was found asleep at start, before the room had said anything: it stays
    /// asleep, and the room decides from there as usual (it wakes with the light, a touch or an
    /// awake window). Nothing changes once the room has moved it.
    public mutating func foundAsleep() {
        guard automatic == .on, automaticReason == .startup else { return }
        automatic = .off
    }

    /// A touch, or anyone seen there: the display wakes at once and the darkness counts again
    /// from now. It ends an override that holds the display off: someone wants to see it.
    public mutating func touched(at time: Double) {
        advance(to: time)
        if activeOverride?.power == .off { activeOverride = nil }
        set(.on, .touch)
        // The next sample keeps this start if the room is dark, and ends it if not.
        darkSince = time
    }

    /// Ends an expired override.
    public mutating func advance(to time: Double) {
        if let until = activeOverride?.until, until <= time {
            endOverride()
        }
    }

    /// An override holds at once; `auto` goes back to the room.
    public mutating func apply(_ command: Command, at time: Double) {
        advance(to: time)
        switch command {
        case .hold(let power, let duration):
            activeOverride = Override(power: power, until: duration.map { time + $0 })
        case .auto:
            endOverride()
        }
    }

    /// Back to the room, which is what it has been meanwhile.
    private mutating func endOverride() {
        guard activeOverride != nil else { return }
        activeOverride = nil
        automaticReason = .auto
    }

    /// Takes new settings (a reload): the state and any override carry over, and so does the
    /// evidence, which the next sample judges against the new levels.
    public mutating func reconfigure(_ newConfiguration: DisplaySleepConfiguration) {
        configuration = newConfiguration
    }

    /// The room's new say; a change starts the other side's evidence afresh.
    private mutating func set(_ power: DisplayPower, _ reason: Reason) {
        guard power != automatic || reason == .touch else { return }
        automatic = power
        automaticReason = reason
        switch power {
        case .on: darkSince = nil
        case .off: lightSince = nil
        }
    }
}
