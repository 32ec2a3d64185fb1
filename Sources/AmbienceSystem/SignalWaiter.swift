import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// Every program's one place to wait: until a deadline, a signal, or a descriptor ready.
/// Signals arrive through a signalfd instead of handlers, so they are ordinary events of the
/// loop (no async-signal-safety puzzles) and a signal can never be lost between check and sleep.
public final class SignalWaiter {
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

    /// Waits until `deadline` (monotonic seconds of `clock`), a signal, or one of `reading`
    /// readable or `writing` writable, whichever comes first. One thing is reported per call,
    /// signals first, then the descriptors in their order.
    public func wait(
        until deadline: Double, clock: any Clock, reading: [FileDescriptor] = [],
        writing: [FileDescriptor] = []
    ) -> Wake {
        // Signals already read come first; a signal not yet read makes the signalfd readable, so
        // the poll below returns at once for it, and a quiet wait costs no read(2).
        if !pending.isEmpty { return .signal(pending.removeFirst()) }
        while true {
            let remaining = deadline - clock.now
            if remaining <= 0 { return .deadline }
            // Round up, so a wake never comes a fraction of a millisecond early and spins.
            let milliseconds = Int32(min((remaining * 1000).rounded(.up), Double(Int32.max)))
            var requests: [(descriptor: FileDescriptor, events: Int16)] = [(signals, Int16(POLLIN))]
            for descriptor in reading { requests.append((descriptor, Int16(POLLIN))) }
            for descriptor in writing { requests.append((descriptor, Int16(POLLOUT))) }
            let events: [Int16]
            do {
                events = try FileDescriptor.poll(requests, milliseconds: milliseconds)
            } catch {
                return .deadline
            }
            if events[0] != 0, let signal = nextPendingSignal() { return .signal(signal) }
            // An error or hang-up is reported as ready: the read or write that follows meets it.
            if let index = events.indices.dropFirst().first(where: { events[$0] != 0 }) {
                return index <= reading.count
                    ? .readable(reading[index - 1]) : .writable(writing[index - 1 - reading.count])
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
