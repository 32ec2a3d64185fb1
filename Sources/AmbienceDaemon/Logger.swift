import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// One line per message on stderr. Under systemd (stderr not a terminal) each line starts with
/// a `<N>` priority prefix that journald turns into the entry's priority (sd-daemon(3)).
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

    public func log(_ priority: Priority, _ message: String) {
        write((prefixed ? "<\(priority.rawValue)>" : "") + message + "\n")
    }

    public static func standardError(_ line: String) {
        try? FileDescriptor.standardError.writeAll(line)
    }
}
