import AmbienceCore

/// When the daemon samples, and the time each sample is stamped with: whole slots of the
/// interval from an anchor on the record's millisecond grid (`CompactRecord.sampleTime`).
/// A fixed schedule does not drift, and a slow measurement skips slots rather than bunching
/// them. A sample is stamped with the last slot at or before the moment its reading came in,
/// not with that moment itself: the moment carries the wake-up's jitter (a timer's slack is
/// 50 µs, an emulated board's a millisecond and more), and the persistent record predicts the
/// slots, so a stamp off them costs a time token on every row. The slot is within an interval
/// of the reading, so a long measurement (a chip's automatic range in the dark) is not dated
/// back to when it began, which would make its gap to the next look like a fault.
public struct SampleSchedule: Equatable, Sendable {
    public private(set) var interval: Double
    private var anchor: Double
    private var slot = 0

    public init(interval: Double, start: Double) {
        self.interval = interval
        anchor = CompactRecord.sampleTime(start)
    }

    /// The time of the next slot: when the next measurement is to begin.
    public var due: Double { time(ofSlot: slot) }

    /// The stamp of a reading that came in at `now`: the last slot at or before it.
    public func stamp(completedAt now: Double) -> Double {
        // From one past the division's slot down: 0.3 / 0.1 is 2.9999999999999996.
        var slot = max(0, Int(((now - anchor) / interval).rounded(.down)) + 1)
        while slot > 0, time(ofSlot: slot) > now { slot -= 1 }
        return time(ofSlot: slot)
    }

    /// Moves on to the first slot after `now` (never the same slot again), once a sample is in.
    /// Counting slots, not dividing times, so that 4.1 / 0.1 coming out as 40.999… cannot
    /// schedule a slot twice.
    public mutating func advance(after now: Double) {
        let elapsed = Int(((now - anchor) / interval).rounded(.down))
        slot = max(slot + 1, elapsed + 1)
    }

    /// A new interval (a reload): a new schedule, its first slot now.
    public mutating func restart(interval: Double, at now: Double) {
        self = SampleSchedule(interval: interval, start: now)
    }

    private func time(ofSlot slot: Int) -> Double {
        CompactRecord.sampleTime(anchor + Double(slot) * interval)
    }
}
