import AmbienceSystem

/// Simulated time running `speed` times faster than the monotonic clock, for `simulate`.
public final class ScaledClock: Clock {
    public let speed: Double
    private let real: SystemClock
    private let realOrigin: Double

    public init(speed: Double, real: SystemClock = SystemClock()) {
        self.speed = speed
        self.real = real
        realOrigin = real.now
    }

    /// Simulated seconds since the clock was made.
    public var now: Double { (real.now - realOrigin) * speed }

    public func sleep(until deadline: Double) {
        real.sleep(until: realTime(of: deadline))
    }

    /// The monotonic time at which simulated `time` comes.
    public func realTime(of time: Double) -> Double { realOrigin + time / speed }
}

/// The real loop waiter: a `SignalWaiter` on the monotonic clock, deadlines converted when the
/// daemon runs in scaled time.
public final class SignalLoopWaiter: LoopWaiting {
    private let waiter: SignalWaiter
    private let clock: any Clock
    private let real = SystemClock()

    public init(_ waiter: SignalWaiter, clock: any Clock) {
        self.waiter = waiter
        self.clock = clock
    }

    public func wait(until deadline: Double, descriptors: [FileDescriptor]) -> SignalWaiter.Wake {
        if let scaled = clock as? ScaledClock {
            return waiter.wait(until: scaled.realTime(of: deadline), clock: real, descriptors: descriptors)
        }
        return waiter.wait(until: deadline, clock: clock, descriptors: descriptors)
    }
}
