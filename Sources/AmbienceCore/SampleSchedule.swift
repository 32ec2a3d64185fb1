/// When the daemon samples, and the time each sample is stamped with: whole slots of the
/// interval from an anchor on the record's millisecond grid (`CompactRecord.sampleTime`).
/// A fixed schedule does not drift, and a slow measurement skips slots rather than bunching
/// them. A sample is stamped with its slot, not with the moment its conversion ended or the
/// loop woke: those carry the conversion time and the wake-up's jitter (a timer's slack is
/// 50 µs, an emulated board's a millisecond and more), and the persistent record predicts
/// the slots, so a stamp off them costs a time token on every row.
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

    /// The stamp of a measurement begun at `now`: its slot when begun within half an interval
    /// of it, or `now` on the grid after a longer stall (a suspended board, a stopped
    /// process), since the slot would then misdate the light.
    public func stamp(beganAt now: Double) -> Double {
        now - due < interval / 2 ? due : CompactRecord.sampleTime(now)
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
