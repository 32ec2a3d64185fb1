import AmbienceSystem

/// What the loop waits with: signals, readable descriptors and deadlines for real, or a
/// script in tests.
public protocol LoopWaiting: AnyObject {
    func wait(until deadline: Double, descriptors: [FileDescriptor]) -> SignalWaiter.Wake
}

/// The real loop waiter: a `SignalWaiter` on the daemon's clock.
public final class SignalLoopWaiter: LoopWaiting {
    private let waiter: SignalWaiter
    private let clock: any Clock

    public init(_ waiter: SignalWaiter, clock: any Clock) {
        self.waiter = waiter
        self.clock = clock
    }

    public func wait(until deadline: Double, descriptors: [FileDescriptor]) -> SignalWaiter.Wake {
        waiter.wait(until: deadline, clock: clock, descriptors: descriptors)
    }
}
