/// Whether the display shows anything: its backlight or panel on, or asleep.
public enum DisplayPower: String, Sendable, CaseIterable {
    case on, off
}

/// A stretch of every day, from `start` to `end` in minutes after local midnight; one whose end
/// comes before its start runs past midnight (`22:00-06:00`).
public struct DailyWindow: Equatable, Sendable, CustomStringConvertible {
    public let start: Int
    public let end: Int

    public static let minutesPerDay = 24 * 60

    /// `HH:MM-HH:MM`; nil when the text is not two times of day that differ.
    public init?(_ text: String) {
        let halves = text.split(separator: "-", omittingEmptySubsequences: false)
        guard halves.count == 2, let start = Self.minute(halves[0]), let end = Self.minute(halves[1]),
            start != end
        else { return nil }
        self.start = start
        self.end = end
    }

    /// Whether the minute of the day `minute` (0 to 1439) falls in the window, its start included
    /// and its end not.
    public func contains(minute: Int) -> Bool {
        start < end ? (minute >= start && minute < end) : (minute >= start || minute < end)
    }

    public var description: String { Self.clock(start) + "-" + Self.clock(end) }

    private static func minute(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0...24).contains(hour), (0...59).contains(minute),
            hour < 24 || minute == 0
        else { return nil }
        return (hour * 60 + minute) % minutesPerDay
    }

    private static func clock(_ minute: Int) -> String {
        let hours = minute / 60
        let minutes = minute % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }
}

/// The display sleep engine's own names for its values: the keys of its refusals.
public enum DisplaySleepField: String, CaseIterable, Sendable {
    case sleepBelow, wakeAbove, sleepAfter, wakeAfter
}

/// When the display sleeps and wakes with the room (`DisplaySleepEngine`), validated together;
/// docs/display-sleep.md has the defaults and why.
public struct DisplaySleepConfiguration: Equatable, Sendable {
    /// Lux the smoothed light must stay below, for `sleepAfter`, before the display sleeps.
    public let sleepBelow: Double
    /// Lux every reading must stay above, for `wakeAfter`, before the light wakes it: above
    /// `sleepBelow`, so light between the two moves nothing (the hysteresis).
    public let wakeAbove: Double
    /// Seconds of darkness before the display sleeps.
    public let sleepAfter: Double
    /// Seconds of light before it wakes: longer than a lamp's flicker or a passing car's lights.
    public let wakeAfter: Double
    /// Times of day the display never sleeps in; at a window's start a sleeping display wakes.
    public let awake: [DailyWindow]

    /// Below 3 lx (a room lit only by the screen and a street lamp) for 10 minutes; above 10 lx
    /// (one lamp on) for 2 s.
    public static let darkRoom = try! DisplaySleepConfiguration()

    public init(
        sleepBelow: Double = 3, wakeAbove: Double = 10, sleepAfter: Double = 600, wakeAfter: Double = 2,
        awake: [DailyWindow] = []
    ) throws(ConfigurationError) {
        func require(_ holds: Bool, _ field: DisplaySleepField, _ message: String) throws(ConfigurationError)
        {
            if !holds { throw ConfigurationError(key: field.rawValue, message: message) }
        }
        try require(
            sleepBelow.isFinite && sleepBelow > 0, .sleepBelow, "must be more than 0 lux, not \(sleepBelow)")
        try require(
            wakeAbove.isFinite && wakeAbove > sleepBelow, .wakeAbove,
            "must be more than sleep_below (\(sleepBelow) lux), so light between the two moves nothing,"
                + " not \(wakeAbove)")
        try require(
            sleepAfter.isFinite && sleepAfter >= 15 && sleepAfter <= 86_400, .sleepAfter,
            "must be 15 seconds to a day, not \(sleepAfter) seconds")
        try require(
            wakeAfter.isFinite && wakeAfter >= 0 && wakeAfter <= 600, .wakeAfter,
            "must be 0 to 600 seconds, not \(wakeAfter)")
        self.sleepBelow = sleepBelow
        self.wakeAbove = wakeAbove
        self.sleepAfter = sleepAfter
        self.wakeAfter = wakeAfter
        self.awake = awake
    }

    /// The promised bound on the time from the smoothed light falling below `sleepBelow` and
    /// staying there to the display asleep: the darkness, seen at a sample up to P later.
    public func sleepBound(sampleInterval: Double) -> Double { sleepAfter + sampleInterval }

    /// The promised bound on the time from the light rising above `wakeAbove` and staying there
    /// to the display awake: the first reading above comes up to P later, the evidence after it.
    public func wakeBound(sampleInterval: Double) -> Double { wakeAfter + sampleInterval }
}
