/// What ended a wait of the loop.
public enum Wake: Equatable, Sendable {
    /// The earliest deadline came, and nothing else.
    case deadline
    case signal(Int32)
    case readable(FileDescriptor)
    case writable(FileDescriptor)
}

/// What the loop waits with: a `SignalWaiter` and poll(2) for real, a script in tests.
public protocol LoopWaiting: AnyObject {
    /// Until `deadline` (the waiter's monotonic seconds), a signal, or one of the descriptors
    /// ready; one thing is reported per wait, and the next wait returns at once for another.
    func wait(until deadline: Double, reading: [FileDescriptor], writing: [FileDescriptor]) -> Wake
}

/// What a source waits for before the loop's next wake.
public struct Interest: Sendable {
    public var reading: [FileDescriptor]
    public var writing: [FileDescriptor]
    /// When the source next has something to do by time alone; infinity when it has not.
    public var deadline: Double

    public init(reading: [FileDescriptor] = [], writing: [FileDescriptor] = [], deadline: Double = .infinity)
    {
        self.reading = reading
        self.writing = writing
        self.deadline = deadline
    }
}

/// A part of a program the loop serves: a daemon, a browser, a broker's connection.
public protocol EventSource: AnyObject {
    /// Asked before each wait.
    var interest: Interest { get }
    /// Called with every wake, which may be another source's: a source takes what is its own
    /// and does whatever has come due, so a wake for one never delays another's deadline.
    func serve(_ wake: Wake)
}

/// The one loop every program runs on: the daemon and the three companions each add their
/// sources and run it. A turn serves every source with what woke the loop (at the start, a
/// `.deadline`), then waits for the earliest deadline, a signal or a descriptor any of them
/// asked for. The programs have one to three sources, so a turn is a handful of calls.
public final class EventLoop {
    private let waiter: any LoopWaiting
    private var sources: [any EventSource] = []
    private var stopping = false

    public init(waiter: any LoopWaiting) {
        self.waiter = waiter
    }

    public func add(_ source: any EventSource) {
        sources.append(source)
    }

    public func remove(_ source: any EventSource) {
        sources.removeAll { $0 === source }
    }

    /// Ends `run` once every source has been served the wake under way, so that none misses it.
    public func stop() {
        stopping = true
    }

    /// Serves the sources until one of them calls `stop`; the loop can be run again after.
    public func run() {
        stopping = false
        var wake = Wake.deadline
        while true {
            for source in sources where sources.contains(where: { $0 === source }) {
                source.serve(wake)
            }
            if stopping { return }
            var reading: [FileDescriptor] = []
            var writing: [FileDescriptor] = []
            var deadline = Double.infinity
            for source in sources {
                let interest = source.interest
                reading += interest.reading
                writing += interest.writing
                deadline = min(deadline, interest.deadline)
            }
            wake = waiter.wait(until: deadline, reading: reading, writing: writing)
        }
    }
}

/// The real waiter: a `SignalWaiter` on a monotonic clock.
public final class SignalLoopWaiter: LoopWaiting {
    private let waiter: SignalWaiter
    private let clock: any Clock

    public init(_ waiter: SignalWaiter, clock: any Clock) {
        self.waiter = waiter
        self.clock = clock
    }

    public func wait(until deadline: Double, reading: [FileDescriptor], writing: [FileDescriptor]) -> Wake {
        waiter.wait(until: deadline, clock: clock, reading: reading, writing: writing)
    }
}
