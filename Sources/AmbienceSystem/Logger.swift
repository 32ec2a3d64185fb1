#if canImport(Glibc)
    import Glibc
#endif

/// Messages on stderr. When stderr is the journal's stream each line starts with a `<N>`
/// priority prefix that journald turns into the entry's priority (sd-daemon(3)); journald reads
/// the prefix line by line, so every line of a message carries it. Anywhere else (a terminal, a
/// pipe to less, a cron mail) the message is as written.
public final class Logger: @unchecked Sendable {
    public enum Priority: Int, Sendable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
    }

    private let write: (String) -> Void
    private let prefixed: Bool

    public init(
        prefixed: Bool = Logger.isJournal(
            stream: getenv("JOURNAL_STREAM").map { String(cString: $0) },
            standardError: try? FileDescriptor.standardError.status()),
        write: @escaping (String) -> Void = Logger.standardError
    ) {
        self.prefixed = prefixed
        self.write = write
    }

    /// Every program's own: what reaches journald at a priority, fatal messages at `error`.
    public static let standard = Logger()

    public func log(_ priority: Priority, _ message: String) {
        guard prefixed else { return write(message + "\n") }
        let prefix = "<\(priority.rawValue)>"
        write(
            message.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 + "\n" }
                .joined())
    }

    /// Whether stderr is the journal: systemd names the stream it connected in $JOURNAL_STREAM
    /// as `DEVICE:INODE` (decimal), and stderr must still be that stream (systemd.exec(5)); a
    /// program of the unit's whose stderr was sent elsewhere (`ambience check 2>&1 | less` in a
    /// shell started from it) inherits the variable, not the journal.
    public static func isJournal(stream: String?, standardError: FileStatus?) -> Bool {
        guard let stream, let standardError else { return false }
        let parts = stream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
            return false
        }
        return standardError.device == device && standardError.inode == inode
    }

    public static func standardError(_ line: String) {
        try? FileDescriptor.standardError.writeAll(line)
    }
}
