import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The file-system steps the outputs share: directories, named pipes, atomic replacement.
enum Files {
    /// `mkdir -p`: creates the missing directories of `path` with `mode`.
    static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(OutputError) {
        guard !path.isEmpty, path != "/" else { return }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .system(operation: "use as a directory", path: path, Errno.notDirectory)
            }
            return
        }
        try makeDirectories(parent(of: path), mode: mode)
        if mkdir(path, mode) != 0, errno != EEXIST {
            throw failure("create directory", path, .current)
        }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func kind(_ mode: mode_t) -> String {
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

    /// The id of the group named `name` (or given as a number).
    static func groupID(_ name: String, key: String) throws(OutputError) -> gid_t {
        if let number = gid_t(name) { return number }
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let status = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil else {
            throw .configuration(ConfigurationError(key: key, message: "no group named '\(name)'"))
        }
        return entry.gr_gid
    }

    /// Makes sure `path` is a named pipe with `mode` and `group`: creates it (and its parent
    /// directories) when missing, refuses anything else that is there without touching it.
    static func prepareFIFO(_ path: String, mode: mode_t, group: String?, key: String) throws(OutputError) {
        var groupID: gid_t?
        if let group { groupID = try Files.groupID(group, key: key + ".group") }
        try makeDirectories(parent(of: path))
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw failure("inspect", path, .current) }
            if mkfifo(path, mode) != 0, errno != EEXIST { throw failure("create named pipe", path, .current) }
            guard lstat(path, &info) == 0 else { throw failure("inspect", path, .current) }
        }
        guard info.st_mode & S_IFMT == S_IFIFO else { throw .notAFIFO(path: path, found: kind(info.st_mode)) }
        // Mode and group are set through a descriptor, so a path swapped for a symbolic link
        // in between is refused (O_NOFOLLOW) rather than followed; opening a named pipe for
        // reading without blocking succeeds at once and wakes no one.
        let pipe: FileDescriptor
        do {
            pipe = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
        } catch {
            throw error == Errno.tooManySymbolicLinkLevels
                ? .notAFIFO(path: path, found: "a symbolic link") : failure("open", path, error)
        }
        defer { pipe.close() }
        guard fstat(pipe.rawValue, &info) == 0 else { throw failure("inspect", path, .current) }
        guard info.st_mode & S_IFMT == S_IFIFO else { throw .notAFIFO(path: path, found: kind(info.st_mode)) }
        if fchmod(pipe.rawValue, mode) != 0 { throw failure("set the mode of", path, .current) }
        if let groupID, info.st_gid != groupID, fchown(pipe.rawValue, uid_t.max, groupID) != 0 {
            throw failure("set the group of", path, .current)
        }
    }

    /// Replaces `path` with `contents` so that a reader sees the old file or the new one,
    /// never a part: write a temporary file beside it, fsync, rename over. `durable` also
    /// syncs the directory, so the rename itself survives a power cut.
    static func replaceAtomically(_ path: String, with contents: String, mode: mode_t, durable: Bool)
        throws(OutputError)
    {
        let directory = parent(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = directory + "/." + name + ".tmp"
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: mode)
        } catch {
            throw failure("create", temporary, error)
        }
        var written = false
        defer {
            file.close()
            if !written { unlink(temporary) }
        }
        do {
            try file.writeAll(contents)
        } catch {
            throw failure("write", temporary, error)
        }
        if fchmod(file.rawValue, mode) != 0 { throw failure("set the mode of", temporary, .current) }
        if fsync(file.rawValue) != 0 { throw failure("sync", temporary, .current) }
        if rename(temporary, path) != 0 { throw failure("replace", path, .current) }
        written = true
        if durable, let folder = try? FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY) {
            _ = fsync(folder.rawValue)
            folder.close()
        }
    }

    static func failure(_ operation: String, _ path: String, _ error: Errno) -> OutputError {
        if error == .permissionDenied || error == .notPermitted {
            return .permissionDenied(
                path: path, hint: "run the daemon as a user of the group that owns it, or fix its owner")
        }
        return .system(operation: operation, path: path, error)
    }
}
