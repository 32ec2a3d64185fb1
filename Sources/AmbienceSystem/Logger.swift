#if canImport(Glibc)
    import Glibc
#endif

/// Messages on stderr. Under systemd (stderr not a terminal) each line starts with a `<N>`
/// priority prefix that journald turns into the entry's priority (sd-daemon(3)); journald reads
/// the prefix line by line, so every line of a message carries it.
public final class Logger: @unchecked Sendable {
    public enum Priority: Int, Sendable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
    }

    private let write: (String) -> Void
    private let prefixed: Bool

    public init(prefixed: Bool = isatty(2) == 0, write: @escaping (String) -> Void = Logger.standardError) {
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

    public static func standardError(_ line: String) {
        try? FileDescriptor.standardError.writeAll(line)
    }
}
