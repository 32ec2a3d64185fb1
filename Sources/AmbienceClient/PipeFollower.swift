import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The reading end of the daemon's named pipe, for any consumer (`ambience watch`, a kiosk
/// bridge): follows the pipe's path rather than the pipe first opened there, so it survives the
/// daemon's restarts, including one that removes the pipe (systemd's RuntimeDirectory= does) and
/// makes a new one at the same path.
///
/// It never blocks in open(2): the pipe is opened without blocking and waited for in poll(2).
/// That makes a pipe that no writer has opened since look like no news at all, since Linux
/// reports nothing for it, neither input nor hang-up; the pipe that replaced it would go
/// unnoticed. So the path is checked against the open pipe (device and inode) every
/// `recheckInterval`, and at once when inotify reports the name created, removed or renamed in
/// its directory. A writer that leaves (end of file) gets the pipe reopened: Linux would report
/// the hang-up on the old descriptor forever, while a fresh one waits quietly for the next writer.
public final class PipeFollower {
    public enum Event: Equatable, Sendable {
        /// The pipe at the path is open, possibly another one than before.
        case opened
        /// What a writer wrote, as read: lines may be split between two events.
        case data([UInt8])
        /// The pipe read so far is done with (its writer left, or the path names another file or
        /// none): a partial line from it will never be finished.
        case closed
        /// Nothing is at the path; reported once until something is.
        case missing
        /// Nothing of the above before the timeout.
        case timedOut
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case notAFIFO(path: String)
        case cannotOpen(path: String, Errno)
        case cannotRead(path: String, Errno)

        public var description: String {
            switch self {
            case .notAFIFO(let path): "\(path) is not a named pipe"
            case .cannotOpen(let path, .permissionDenied):
                "\(path): permission denied; "
                    + (Access.hint(path, writing: false) ?? "its directory or the pipe is not for this user")
            case .cannotOpen(let path, let error): "cannot open \(path): \(error)"
            case .cannotRead(let path, let error): "cannot read \(path): \(error)"
            }
        }
    }

    public let path: String
    /// The longest a replaced or newly made pipe goes unnoticed when inotify cannot tell (its
    /// directory missing too, a symbolic link on the way, inotify unavailable).
    public let recheckInterval: Double
    /// How many times the wait in poll(2) has ended: what a test counts to see there is no spin.
    public private(set) var wakeUps = 0

    private let directory: String
    private let name: String
    private let clock: any Clock
    private var pipe: FileDescriptor?
    private var pipeStatus: FileStatus?
    private var directoryEvents: Inotify?
    private var directoryWatch: Int32?
    private var checkDue = true
    private var nextCheck = 0.0
    private var saidMissing = false
    private var pending: [Event] = []
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    /// `clock` (monotonic) times the checks and the waits.
    public init(path: String, recheckInterval: Double = 1, clock: any Clock = SystemClock()) {
        self.path = path
        self.clock = clock
        self.recheckInterval = recheckInterval
        let slash = path.lastIndex(of: "/")
        directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // Without inotify (its instances used up) the periodic check alone finds new pipes.
        directoryEvents = try? Inotify()
    }

    deinit { pipe?.close() }

    /// What a source of the event loop waits on for the pipe (beside a browser's pipe, a
    /// server's descriptor): when one of these is readable, or `wakeDeadline` (monotonic
    /// seconds) has come, `drain`.
    public var descriptors: [FileDescriptor] { [pipe, directoryEvents?.descriptor].compactMap { $0 } }
    public var wakeDeadline: Double { checkDue || !pending.isEmpty ? clock.now : nextCheck }

    /// Takes every event there is now, in order, without waiting.
    public func drain(_ take: (Event) -> Void) throws(Failure) {
        while true {
            let event = try next(timeout: 0)
            if event == .timedOut { return }
            take(event)
        }
    }

    /// Waits at most `timeout` seconds (`.infinity`: as long as it takes) for the next event;
    /// with 0, looks once without waiting.
    public func next(timeout: Double) throws(Failure) -> Event {
        if !pending.isEmpty { return pending.removeFirst() }
        let deadline = clock.now + timeout
        var looked = false
        while true {
            if checkDue || clock.now >= nextCheck {
                checkDue = false
                nextCheck = clock.now + recheckInterval
                watchDirectory()
                if pipe == nil {
                    if let event = try open() { return event }
                } else if !pathNamesOpenPipe() {
                    let last = try readAvailable()
                    close()
                    pending.append(.closed)
                    if let last, !last.isEmpty { return .data(last) }
                    return pending.removeFirst()
                }
            }
            let now = clock.now
            if now >= deadline, looked { return .timedOut }
            looked = true
            let polled = descriptors
            let seconds = max(0, min(deadline, nextCheck) - now)
            // Rounded up, so the wait never ends a fraction of a millisecond early and spins.
            let milliseconds = Int32(min((seconds * 1000).rounded(.up), Double(Int32.max)))
            let ready: [Int16]
            do {
                ready = try FileDescriptor.poll(
                    polled, events: Int16(POLLIN), milliseconds: milliseconds)
            } catch {
                throw .cannotRead(path: path, error)
            }
            wakeUps += 1
            if let events = directoryEvents, let index = polled.firstIndex(of: events.descriptor),
                ready[index] != 0
            {
                readDirectoryEvents(events)
            }
            if pipe != nil, ready[0] != 0 {
                guard let bytes = try readAvailable() else { continue }
                if !bytes.isEmpty { return .data(bytes) }
                close()
                return .closed
            }
        }
    }

    /// Opens the pipe at the path; nil when there is none yet and that was said already.
    private func open() throws(Failure) -> Event? {
        let opened: FileDescriptor
        do {
            opened = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        } catch .noSuchFileOrDirectory {
            if saidMissing { return nil }
            saidMissing = true
            return .missing
        } catch {
            throw .cannotOpen(path: path, error)
        }
        guard let status = try? opened.status(), status.isFIFO else {
            opened.close()
            throw .notAFIFO(path: path)
        }
        saidMissing = false
        pipe = opened
        pipeStatus = status
        return .opened
    }

    private func close() {
        pipe?.close()
        pipe = nil
        pipeStatus = nil
        // Reopen at once: after end of file the same pipe waits for its next writer.
        checkDue = true
    }

    private func pathNamesOpenPipe() -> Bool {
        guard let pipeStatus, let current = try? FileSystem.status(of: path) else { return false }
        return current.isSameFile(as: pipeStatus)
    }

    /// One read without waiting: the bytes (empty at end of file), or nil when nothing is there.
    private func readAvailable() throws(Failure) -> [UInt8]? {
        guard let pipe else { return nil }
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(Errno) in try pipe.read(into: bytes) }
        }
        switch result {
        case .success(let count): return Array(buffer[..<count])
        case .failure(.wouldBlock): return nil
        case .failure(let error): throw .cannotRead(path: path, error)
        }
    }

    /// Watches the directory for the name coming and going; retried at each check while the
    /// directory itself is missing.
    private func watchDirectory() {
        guard directoryWatch == nil, let directoryEvents else { return }
        directoryWatch = try? directoryEvents.watch(
            directory, for: [.created, .deleted, .movedFrom, .movedTo, .watchedDeleted, .watchedMoved])
    }

    private func readDirectoryEvents(_ events: Inotify) {
        let read: [Inotify.Event]
        do {
            read = try events.read()
        } catch {
            // Unread, the events would end every wait at once: the periodic check takes over.
            directoryEvents = nil
            directoryWatch = nil
            checkDue = true
            return
        }
        for event in read {
            if event.events.contains(.overflowed) {
                checkDue = true
            } else if event.watch != directoryWatch {
                continue  // a watch given up before, still reporting its last events
            } else if !event.events.isDisjoint(with: [.ignored, .watchedDeleted, .watchedMoved]) {
                // The directory went away (or elsewhere): watch the one at the path again.
                if let directoryWatch, !event.events.contains(.ignored) { events.removeWatch(directoryWatch) }
                directoryWatch = nil
                checkDue = true
            } else if event.name == name {
                checkDue = true
            }
        }
    }
}
