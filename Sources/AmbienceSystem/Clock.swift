#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic time in seconds, and waiting for it. Injected everywhere time matters, so tests
/// and `replay` run in simulated time and never sleep.
public protocol Clock: AnyObject, Sendable {
    /// Seconds on a monotonic scale with an arbitrary origin.
    var now: Double { get }
    /// Returns once `now >= deadline` (a signal may end the wait early; callers re-check).
    func sleep(until deadline: Double)
}

extension Clock {
    public func sleep(seconds: Double) { sleep(until: now + seconds) }
}

/// CLOCK_MONOTONIC: never jumps with the wall clock (NTP, RTC-less Pis setting the date late).
public final class SystemClock: Clock {
    public init() {}

    public var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    public func sleep(until deadline: Double) {
        guard deadline.isFinite, deadline > now else { return }
        let seconds = deadline.rounded(.down)
        var spec = timespec(tv_sec: time_t(seconds), tv_nsec: Int((deadline - seconds) * 1e9))
        // Absolute deadline: an EINTR restart cannot drift, and a signal handler's flag is
        // seen by the caller's loop right after.
        _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil)
    }
}

/// Simulated time for tests: sleeping moves time forward at once.
public final class ManualClock: Clock, @unchecked Sendable {
    private var current: Double

    public init(now: Double = 0) { current = now }

    public var now: Double { current }

    public func sleep(until deadline: Double) {
        if deadline > current { current = deadline }
    }

    public func advance(by seconds: Double) { current += seconds }
}
