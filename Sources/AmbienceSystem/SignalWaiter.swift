import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's one place to wait: until a deadline, a signal, or input on a descriptor.
/// Signals arrive through a signalfd instead of handlers, so they are ordinary events of the
/// loop (no async-signal-safety puzzles) and a signal can never be lost between check and sleep.
public final class SignalWaiter {
    public enum Wake: Equatable, Sendable {
        case deadline
        case signal(Int32)
        case readable(FileDescriptor)
    }

    private let signals: FileDescriptor
    private var pending: [Int32] = []

    /// Blocks `signals` for the process and routes them to a descriptor; ignores SIGPIPE so a
    /// vanished pipe reader is an EPIPE to handle, not a death.
    public init(signals numbers: [Int32]) throws(Errno) {
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        guard sigprocmask(SIG_BLOCK, &set, nil) == 0 else { throw Errno.current }
        let descriptor = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else { throw Errno.current }
        signals = FileDescriptor(rawValue: descriptor)
    }

    deinit { signals.close() }

    /// The signalfd, for a caller with its own poll(2) (one that also waits to write a socket);
    /// when it is readable, `takeSignal` says which signal came.
    public var descriptor: FileDescriptor { signals }

    /// The next signal received, nil when none is pending.
    public func takeSignal() -> Int32? { nextPendingSignal() }

    /// Waits until `deadline` (monotonic seconds of `clock`), a signal, or one of `descriptors`
    /// becomes readable, whichever comes first. Signals are reported one per call.
    public func wait(until deadline: Double, clock: any Clock, descriptors: [FileDescriptor] = []) -> Wake {
        // Signals already read come first; a signal not yet read makes the signalfd readable, so
        // the poll below returns at once for it, and a quiet wait costs no read(2).
        if !pending.isEmpty { return .signal(pending.removeFirst()) }
        while true {
            let remaining = deadline - clock.now
            if remaining <= 0 { return .deadline }
            // Round up, so a wake never comes a fraction of a millisecond early and spins.
            let milliseconds = Int32(min((remaining * 1000).rounded(.up), Double(Int32.max)))
            let events: [Int16]
            do {
                events = try FileDescriptor.poll(
                    [signals] + descriptors, events: Int16(POLLIN), milliseconds: milliseconds)
            } catch {
                return .deadline
            }
            if events[0] != 0, let signal = nextPendingSignal() { return .signal(signal) }
            if let index = events.indices.dropFirst().first(where: { events[$0] != 0 }) {
                return .readable(descriptors[index - 1])
            }
        }
    }

    private func nextPendingSignal() -> Int32? {
        if pending.isEmpty {
            var info = signalfd_siginfo()
            while (try? retryOnInterrupt({
                read(signals.rawValue, &info, MemoryLayout<signalfd_siginfo>.size)
            }))
                == MemoryLayout<signalfd_siginfo>.size
            {
                pending.append(Int32(info.ssi_signo))
            }
        }
        return pending.isEmpty ? nil : pending.removeFirst()
    }
}
