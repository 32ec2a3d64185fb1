#if canImport(Glibc)
    import Glibc
#endif

/// The one way this project persists a file: a temporary beside it, written and fsynced,
/// renamed over it, then the directory fsynced. A reader sees the old content or the new, and
/// so does the next boot after a power cut at any moment: without the file's fsync the rename
/// can reach the disk before the data (an empty file after the cut); without the directory's
/// the rename itself can be lost.
public enum AtomicFile {
    /// Which step failed, on which path (the temporary for the steps before the rename).
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var operation: String
        public var path: String
        public var errno: Errno

        public init(operation: String, path: String, errno: Errno) {
            self.operation = operation
            self.path = path
            self.errno = errno
        }

        public var description: String { "cannot \(operation) \(path): \(errno)" }
    }

    /// Where `path`'s new content is written before the rename: hidden, beside it (a rename
    /// is atomic only within one file system).
    public static func temporaryPath(for path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." + path + ".tmp" }
        return String(path[...slash]) + "." + path[path.index(after: slash)...] + ".tmp"
    }

    /// Replaces `path` with `contents`.
    public static func replace(_ path: String, with contents: String, mode: mode_t, group: gid_t? = nil)
        throws(Failure)
    {
        try replace(path, mode: mode, group: group) { file throws(Errno) in try file.writeAll(contents) }
    }

    /// Replaces `path` with what `body` writes to the temporary, so that a long file is
    /// streamed rather than held. The file gets `mode` whatever the umask, and `group` (nil:
    /// the group of the file it replaces, when the process may give it). Whatever step fails,
    /// the old file stays and the temporary is removed.
    public static func replace(
        _ path: String, mode: mode_t, group: gid_t? = nil,
        writing body: (FileDescriptor) throws(Errno) -> Void
    ) throws(Failure) {
        let temporary = temporaryPath(for: path)
        let previousGroup = group == nil ? (try? FileSystem.status(of: path))?.group : nil
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: mode)
        } catch {
            throw Failure(operation: "create", path: temporary, errno: error)
        }
        var renamed = false
        defer {
            file.close()
            if !renamed { try? FileSystem.removeFile(temporary) }
        }
        func step(_ operation: String, _ action: () throws(Errno) -> Void) throws(Failure) {
            do { try action() } catch { throw Failure(operation: operation, path: temporary, errno: error) }
        }
        try step("set the mode of") { () throws(Errno) in try file.setMode(mode) }
        if let group {
            try step("set the group of") { () throws(Errno) in try file.setGroup(group) }
        } else if let previousGroup, (try? file.status())?.group != previousGroup {
            // Kept when allowed: a group an administrator gave the file is not asked for again,
            // and a process that may not give it still writes the content, which matters more.
            try? file.setGroup(previousGroup)
        }
        try step("write") { () throws(Errno) in try body(file) }
        try step("sync") { () throws(Errno) in try file.sync() }
        do {
            try FileSystem.rename(temporary, to: path)
        } catch {
            throw Failure(operation: "replace", path: path, errno: error)
        }
        renamed = true
        do {
            try syncDirectory(of: path)
        } catch {
            throw Failure(operation: "sync the directory of", path: path, errno: error)
        }
    }

    /// fsync of the directory holding `path`, so that a rename or a new name in it survives a
    /// power cut. A file system that cannot sync a directory (EINVAL) has nothing more to give.
    public static func syncDirectory(of path: String) throws(Errno) {
        let directory =
            path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let folder = try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY)
        defer { folder.close() }
        do {
            try folder.sync()
        } catch .invalidArgument {
            return
        }
    }
}
