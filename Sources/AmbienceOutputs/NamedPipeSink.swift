import AmbienceClient
import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The named pipe the kiosk reads (docs/guarantees.md §5.2): one event line per write(2), each below
/// PIPE_BUF so it is never torn; a `current` line first for every new reader; lines dropped,
/// never waited for, when the reader is slow, after which the reader is brought back to the
/// latest state.
///
/// A reader is noticed in `poll`: when none was connected, opening the write end without
/// blocking succeeds as soon as one is there (ENXIO until then); while one is connected,
/// inotify reports every further open of the pipe, so a reader that replaced another between
/// two ticks still gets its `current` line. When the last reader leaves, the write end is
/// closed, which discards whatever it left unread: the next reader starts clean.
public final class NamedPipeSink: Sink {
    public struct Configuration: Sendable {
        public static let defaultPath = RuntimePaths.statePipe
        /// The daemon's user writes; its group (the kiosk's readers) reads.
        public static let defaultMode: mode_t = 0o660

        public var path: String
        public var format: EventLine.Format
        public var mode: mode_t
        /// A group name or number; nil leaves the creator's group.
        public var group: String?

        public init(
            path: String = Configuration.defaultPath, format: EventLine.Format = .json,
            mode: mode_t = Configuration.defaultMode,
            group: String? = nil
        ) {
            self.path = path
            self.format = format
            self.mode = mode
            self.group = group
        }
    }

    public let configuration: Configuration
    private let renderTime: EventTimeRenderer
    private let log: OutputLog
    private var report: FaultReport
    private var writer: FileDescriptor?
    private var openWatch: Inotify?
    /// The latest change or current event: what a new reader is told first.
    private var latestState: Event?
    /// The fault event while the sensor is faulted, told to new readers after `current`.
    private var activeFault: Event?
    /// The connected reader may have missed lines (it is new, or the pipe was full).
    private var needsResync = false
    /// Readers' opens and closes seen since the connected reader was last brought up to date.
    private var opensSinceSync = 0
    private var closesSinceSync = 0
    /// The latest monotonic time seen (events, polls): a `current` line's override counts down from it.
    private var now = -Double.infinity

    /// Creates the pipe if needed (see `Files.prepareFIFO`) and starts watching for readers.
    /// SIGPIPE is set to be ignored: a reader leaving must be an EPIPE, not the daemon's end.
    public init(
        _ configuration: Configuration, renderTime: @escaping EventTimeRenderer, log: @escaping OutputLog
    ) throws(OutputError) {
        self.configuration = configuration
        self.renderTime = renderTime
        self.log = log
        report = FaultReport(log: log)
        signal(SIGPIPE, SIG_IGN)
        try Files.prepareFIFO(
            configuration.path, mode: configuration.mode, group: configuration.group)
        watchOpens()
    }

    /// Without inotify (or its watches used up) readers are still found, only a reader that
    /// replaces another between two ticks waits for the next event for its `current` line.
    private func watchOpens() {
        openWatch = nil
        guard let watch = try? Inotify(),
            (try? watch.watch(configuration.path, for: [.opened, .closedWithoutWriting])) != nil
        else { return }
        openWatch = watch
    }

    deinit { close() }

    /// Whether a reader is connected, as of the last call.
    public var isConnected: Bool { writer != nil }

    public func deliver(_ event: Event) {
        now = max(now, event.time)
        switch event.kind {
        case .change, .current: latestState = event
        case .fault: activeFault = event
        case .recovered: activeFault = nil
        }
        guard writer != nil else { return }
        if needsResync {
            resync()
        } else if let line = line(for: event) {
            send(line)
        }
    }

    public func poll(now: Double) {
        self.now = max(self.now, now)
        let readerArrived = drainOpenEvents()
        if let writer, readersGone(writer) { disconnect() }
        if writer == nil {
            connect()
        } else if readerArrived {
            needsResync = true
            opensSinceSync = 0
            closesSinceSync = 0
        }
        if writer != nil, needsResync { resync() }
    }

    public func close() {
        disconnect()
        openWatch = nil
    }

    private func line(for event: Event) -> [UInt8]? {
        guard
            let text = EventLine.encode(
                event, format: configuration.format, time: renderTime(event.time), now: max(now, event.time))
        else {
            return nil
        }
        let bytes = Array(text.utf8)
        // Only writes of at most PIPE_BUF bytes are atomic; a longer line could be torn, so it
        // is never written. Event lines are a few hundred bytes, so this does not happen.
        return bytes.count <= Int(PIPE_BUF) ? bytes : nil
    }

    private enum Outcome { case written, full, gone }

    @discardableResult
    private func send(_ line: [UInt8]) -> Outcome {
        guard let writer else { return .gone }
        let result = line.withUnsafeBytes { bytes in Result { () throws(Errno) in try writer.write(bytes) } }
        switch result {
        case .success:
            return .written
        case .failure(.wouldBlock):
            // Full: this line is dropped; the reader gets the latest state once it drains.
            needsResync = true
            return .full
        case .failure:
            // EPIPE (the reader left) or anything else: wait for the next reader.
            disconnect()
            return .gone
        }
    }

    /// Brings the reader to the present: the current state, then the fault if one holds.
    private func resync() {
        // The state may be older than a fault that began or ended since.
        var current = latestState?.asCurrent
        current?.faulted = activeFault != nil
        let lines = [current, activeFault].compactMap { $0.flatMap(line(for:)) }
        for line in lines where send(line) != .written { return }
        needsResync = false
    }

    private func connect() {
        let path = configuration.path
        let opened: FileDescriptor
        do {
            opened = try FileDescriptor.open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW)
        } catch .noSuchAddressOrDevice {
            report.succeeded("\(path): the named pipe can be opened again")
            return  // no reader yet: not an error
        } catch .noSuchFileOrDirectory {
            // Removed while running (a cleanup of /run): made again, for the next reader.
            do {
                try Files.prepareFIFO(
                    path, mode: configuration.mode, group: configuration.group)
                watchOpens()
                log("\(path): the named pipe was removed while running, and is made again")
            } catch {
                report.failed("\(path): the named pipe was removed and cannot be made again: \(error)")
            }
            return
        } catch {
            let reason = error == .tooManySymbolicLinkLevels ? "it is now a symbolic link" : "\(error)"
            report.failed("\(path): cannot open the named pipe for writing: \(reason)")
            return
        }
        let status = try? opened.status()
        guard let status, status.isFIFO else {
            opened.close()
            report.failed(
                "\(path): no longer a named pipe (\(Files.kind(status?.mode ?? 0))); not writing to it")
            return
        }
        report.succeeded("\(path): the named pipe can be opened again")
        writer = opened
        // Our own open shows up as an open event too; whoever opened before now is
        // connected already and gets the lines below.
        _ = drainOpenEvents()
        opensSinceSync = 0
        closesSinceSync = 0
        needsResync = true
    }

    private func disconnect() {
        writer?.close()
        writer = nil
        needsResync = false
    }

    /// POLLERR on a pipe's write end means no reader is left.
    private func readersGone(_ writer: FileDescriptor) -> Bool {
        let events = (try? FileDescriptor.poll([writer], events: Int16(POLLOUT), milliseconds: 0)) ?? [0]
        return events[0] & Int16(POLLERR | POLLHUP) != 0
    }

    /// Reads the pending inotify events; true when a new reader has replaced one that left.
    /// An open with no close beside it is the reader we connected for, whose own open completes
    /// (and is reported) only after ours: it has its `current` line already. IN_IGNORED (the
    /// pipe removed) counts as a close.
    private func drainOpenEvents() -> Bool {
        guard let openWatch else { return false }
        for event in (try? openWatch.read()) ?? [] {
            if event.events.contains(.opened) { opensSinceSync += 1 }
            if !event.events.isDisjoint(with: [.closedWithoutWriting, .ignored]) { closesSinceSync += 1 }
        }
        return opensSinceSync > 0 && closesSinceSync > 0
    }
}
