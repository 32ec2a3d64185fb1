/// A descriptor the loop reads as it comes (the simulator's typed lux, say) until its end.
public final class InputSource: EventSource {
    private let descriptor: FileDescriptor
    private let handle: () -> Bool
    private var ended = false

    /// `handle` reads what is there and returns false at end-of-file: a descriptor at its end
    /// stays readable for ever, and watching it on would spin the loop.
    public init(_ descriptor: FileDescriptor, _ handle: @escaping () -> Bool) {
        self.descriptor = descriptor
        self.handle = handle
    }

    public var interest: Interest { Interest(reading: ended ? [] : [descriptor]) }

    public func serve(_ wake: Wake) {
        if wake == .readable(descriptor), !ended { ended = !handle() }
    }
}
