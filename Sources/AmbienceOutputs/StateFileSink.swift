import AmbienceClient
import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The state file (docs/guarantees.md §5.4): the latest event line, replaced atomically, so
/// `ambience status` and anyone else reading it sees a whole line, old or new, never a part.
public final class StateFileSink: Sink {
    public static let defaultPath = RuntimePaths.stateFile

    public let path: String
    private let mode: mode_t
    private let renderTime: EventTimeRenderer
    private var report: FaultReport
    /// A line that could not be written yet, retried on `poll`.
    private var pending: String?
    private var nextRetry = -Double.infinity

    /// Creates the parent directory if needed. The file appears with the first event.
    public init(
        path: String = StateFileSink.defaultPath, mode: mode_t = 0o640,
        renderTime: @escaping EventTimeRenderer, log: @escaping OutputLog
    ) throws(OutputError) {
        self.path = path
        self.mode = mode
        self.renderTime = renderTime
        report = FaultReport(log: log)
        try Files.makeDirectories(Files.parent(of: path))
    }

    public func deliver(_ event: Event) {
        pending = EventLine.encode(event, format: .json, time: renderTime(event.time))
        write()
    }

    /// Retries a failed write at most once a second.
    public func poll(now: Double) {
        guard pending != nil, now >= nextRetry else { return }
        nextRetry = now + 1
        write()
    }

    /// Removes the file, so that `status` does not present a stopped daemon's last state as current.
    public func close() {
        pending = nil
        try? FileSystem.removeFile(path)
    }

    private func write() {
        guard let line = pending else { return }
        do {
            try Files.persist { () throws(AtomicFile.Failure) in
                try AtomicFile.replace(path, with: line, mode: mode)
            }
            pending = nil
            report.succeeded("\(path): written again")
        } catch {
            report.failed("\(path): \(error)")
        }
    }
}
