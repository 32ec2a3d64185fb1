import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The client side of the control pipe (docs/guarantees.md §5.5): one line to the running
/// daemon, as `ambience override`, `ambience record` and the companions send it.
public enum DaemonControl {
    /// Why `send` could not hand a line to the daemon.
    public enum SendError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The pipe is missing, or no one reads it.
        case daemonNotRunning(path: String)
        /// The daemon has not read what was sent before.
        case daemonNotReading(path: String)
        /// Something else is at the path; it is left alone.
        case notAFIFO(path: String, found: String)
        /// `hint` says who may write it (`Access.hint`).
        case permissionDenied(path: String, hint: String)
        case system(operation: String, path: String, Errno)

        public var description: String {
            switch self {
            case .daemonNotRunning(let path):
                "the daemon is not running (no one reads \(path))"
            case .daemonNotReading(let path):
                "the daemon is not reading \(path): is it stuck?"
            case .notAFIFO(let path, let found):
                "\(path) exists and is \(found), not a named pipe: remove or move it, or configure another path"
            case .permissionDenied(let path, let hint):
                "\(path): permission denied; \(hint)"
            case .system(let operation, let path, let error):
                "cannot \(operation) \(path): \(error)"
            }
        }
    }

    /// Writes one line to the control pipe: never waits, and never creates the pipe (only the
    /// daemon does).
    public static func send(_ line: String, to path: String = RuntimePaths.controlPipe) throws(SendError) {
        let pipe: FileDescriptor
        do {
            pipe = try FileDescriptor.open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW)
        } catch {
            // ENXIO: a named pipe without a reader. ENOENT: not even the pipe.
            if error == .noSuchAddressOrDevice || error == .noSuchFileOrDirectory {
                throw .daemonNotRunning(path: path)
            }
            throw failure("open", path, error)
        }
        defer { pipe.close() }
        let status = try? pipe.status()
        guard let status, status.isFIFO else {
            throw .notAFIFO(path: path, found: FileKind.name(of: status?.mode ?? 0))
        }
        let bytes = Array((line.hasSuffix("\n") ? line : line + "\n").utf8)
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try pipe.write(buffer) } }
        switch result {
        case .success(let count) where count == bytes.count: return
        case .success, .failure(.wouldBlock): throw .daemonNotReading(path: path)
        case .failure(.brokenPipe): throw .daemonNotRunning(path: path)
        case .failure(let error): throw failure("write to", path, error)
        }
    }

    private static func failure(_ operation: String, _ path: String, _ error: Errno) -> SendError {
        if error == .permissionDenied || error == .notPermitted {
            let hint = Access.hint(
                path, writing: true,
                onlyOwner: "use sudo, or let a group of operators in (control_group, control_mode = 0o620)")
            return .permissionDenied(
                path: path, hint: hint ?? "its directory or the pipe is not for this user")
        }
        return .system(operation: operation, path: path, error)
    }
}

/// What kind of file a mode says, in words for messages about a path that is not a named pipe.
public enum FileKind {
    public static func name(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a named pipe"
        }
    }
}
