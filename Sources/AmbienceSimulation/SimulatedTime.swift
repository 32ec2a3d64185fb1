import AmbienceDaemon
import AmbienceSystem

/// Simulated time for `simulate`, paced to run `speed` times faster than real time. It moves
/// only when someone waits, straight to the deadline: however long a sample takes to compute,
/// no simulated time is lost, so a fast simulation behaves exactly like a slow one.
public final class PacedClock: Clock, @unchecked Sendable {
    public let speed: Double
    private let real: SystemClock
    private let realOrigin: Double
    private var current = 0.0

    public init(speed: Double, real: SystemClock = SystemClock()) {
        self.speed = speed
        self.real = real
        realOrigin = real.now
    }

    /// Simulated seconds since the start.
    public var now: Double { current }

    public func sleep(until deadline: Double) {
        guard deadline > current else { return }
        real.sleep(until: realTime(of: deadline))
        current = deadline
    }

    /// The monotonic time at which simulated `time` is due.
    public func realTime(of time: Double) -> Double { realOrigin + time / speed }

    /// Catches up with real time after a wait that ended early (a signal, typed input), never
    /// beyond `limit` and never backwards.
    func catchUp(limit: Double) {
        current = max(current, min(limit, (real.now - realOrigin) * speed))
    }
}

/// The loop waiter of a daemon in paced simulated time: a `SignalWaiter` on the monotonic clock,
/// its deadlines converted to real time and the simulated clock moved on after each wait.
public final class PacedLoopWaiter: LoopWaiting {
    private let waiter: SignalWaiter
    private let clock: PacedClock
    private let real = SystemClock()

    public init(_ waiter: SignalWaiter, clock: PacedClock) {
        self.waiter = waiter
        self.clock = clock
    }

    public func wait(until deadline: Double, reading descriptors: [FileDescriptor], writing: [FileDescriptor])
        -> Wake
    {
        let wake = waiter.wait(
            until: clock.realTime(of: deadline), clock: real, reading: descriptors, writing: writing)
        if wake == .deadline { clock.sleep(until: deadline) } else { clock.catchUp(limit: deadline) }
        return wake
    }
}
