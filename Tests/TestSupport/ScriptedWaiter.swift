import AmbienceSystem

/// Waits in simulated time: jumps the clock to the deadline, or to the next scripted wake.
public final class ScriptedWaiter: LoopWaiting {
    public let clock: ManualClock
    public var script: [(time: Double, wake: Wake)]
    /// How late the wake-up at a deadline comes, wait by wait: a timer's slack, a busy board.
    public var lateness: (Int) -> Double = { _ in 0 }
    public private(set) var waits = 0
    /// What each wait was asked to watch, and until when.
    public private(set) var asked:
        [(deadline: Double, reading: [FileDescriptor], writing: [FileDescriptor])] = []

    public init(clock: ManualClock, script: [(time: Double, wake: Wake)]) {
        self.clock = clock
        self.script = script
    }

    public func wait(until deadline: Double, reading: [FileDescriptor], writing: [FileDescriptor]) -> Wake {
        waits += 1
        asked.append((deadline, reading, writing))
        if let next = script.first, next.time <= deadline {
            script.removeFirst()
            clock.sleep(until: next.time)
            return next.wake
        }
        clock.sleep(until: deadline + lateness(waits))
        return .deadline
    }
}
