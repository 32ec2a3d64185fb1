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
        if let status = try? FileSystem.status(of: path, followingLinks: false) {
            guard status.isDirectory else {
                throw .system(operation: "use as a directory", path: path, .notDirectory)
            }
            return
        }
        try makeDirectories(parent(of: path), mode: mode)
        do {
            try FileSystem.makeDirectory(path, mode: mode)
        } catch .fileExists {
            // Made by someone else in between: as good.
        } catch {
            throw failure("create directory", path, error)
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
    static func groupID(_ name: String) throws(OutputError) -> gid_t {
        if let number = gid_t(name) { return number }
        guard let id = (try? FileSystem.groupID(named: name)) ?? nil else {
            throw .configuration(ConfigurationError(key: "group", message: "no group named '\(name)'"))
        }
        return id
    }

    /// Makes sure `path` is a named pipe with `mode` and `group`: creates it (and its parent
    /// directories) when missing, refuses anything else that is there without touching it.
    /// A group that does not exist is refused as the field `group`.
    static func prepareFIFO(_ path: String, mode: mode_t, group: String?) throws(OutputError) {
        var groupID: gid_t?
        if let group { groupID = try Files.groupID(group) }
        try makeDirectories(parent(of: path))
        var status: FileStatus
        do {
            status = try FileSystem.status(of: path, followingLinks: false)
        } catch .noSuchFileOrDirectory {
            do {
                try FileSystem.makeFIFO(path, mode: mode)
            } catch .fileExists {
                // Made by someone else in between: inspected below like any other.
            } catch {
                throw failure("create named pipe", path, error)
            }
            do {
                status = try FileSystem.status(of: path, followingLinks: false)
            } catch {
                throw failure("inspect", path, error)
            }
        } catch {
            throw failure("inspect", path, error)
        }
        guard status.isFIFO else { throw .notAFIFO(path: path, found: kind(status.mode)) }
        // Mode and group are set through a descriptor, so a path swapped for a symbolic link
        // in between is refused (O_NOFOLLOW) rather than followed; opening a named pipe for
        // reading without blocking succeeds at once and wakes no one.
        let pipe: FileDescriptor
        do {
            pipe = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
        } catch {
            throw error == .tooManySymbolicLinkLevels
                ? .notAFIFO(path: path, found: "a symbolic link") : failure("open", path, error)
        }
        defer { pipe.close() }
        do {
            status = try pipe.status()
        } catch {
            throw failure("inspect", path, error)
        }
        guard status.isFIFO else { throw .notAFIFO(path: path, found: kind(status.mode)) }
        do {
            try pipe.setMode(mode)
        } catch {
            throw failure("set the mode of", path, error)
        }
        if let groupID, status.group != groupID {
            do {
                try pipe.setGroup(groupID)
            } catch {
                throw failure("set the group of", path, error)
            }
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
            if !written { try? FileSystem.removeFile(temporary) }
        }
        do {
            try file.writeAll(contents)
        } catch {
            throw failure("write", temporary, error)
        }
        do {
            try file.setMode(mode)
        } catch {
            throw failure("set the mode of", temporary, error)
        }
        do {
            try file.sync()
        } catch {
            throw failure("sync", temporary, error)
        }
        do {
            try FileSystem.rename(temporary, to: path)
        } catch {
            throw failure("replace", path, error)
        }
        written = true
        if durable, let folder = try? FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY) {
            try? folder.sync()
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

/// Messages for the commands that use the daemon's files on their user's behalf.
public enum Access {
    /// Who may read (or write) `path`, for a command refused it on its user's behalf: a file its
    /// group may use is for that group, which the user can join; one only its owner may use is
    /// for that user and root (`onlyOwner` says what else to do). From the file's mode, owner
    /// and group; nil when even those cannot be seen.
    public static func hint(_ path: String, writing: Bool, onlyOwner: String = "use sudo") -> String? {
        guard let status = try? FileSystem.status(of: path) else { return nil }
        let group = FileSystem.groupName(of: status.group) ?? String(status.group)
        let owner = FileSystem.userName(of: status.owner) ?? String(status.owner)
        let mode = "0o" + String(status.mode & 0o777, radix: 8)
        if status.mode & (writing ? 0o020 : 0o040) != 0 {
            return "it is for the group \(group) (mode \(mode)): join it "
                + "(sudo usermod -aG \(group) $USER) and log in again"
        }
        let verb = writing ? "write" : "read"
        return "only \(owner) and root may \(verb) it (mode \(mode), group \(group)): \(onlyOwner)"
    }
}
