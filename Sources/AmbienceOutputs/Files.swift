import AmbienceClient
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

    static func parent(of path: String) -> String { RuntimePaths.parent(of: path) }

    static func kind(_ mode: mode_t) -> String { FileKind.name(of: mode) }

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

    /// Runs an `AtomicFile` replacement, the one way a file is persisted (old or new content,
    /// never a part, before and after a power cut), and says its failure as the outputs do.
    static func persist(_ replacement: () throws(AtomicFile.Failure) -> Void) throws(OutputError) {
        do {
            try replacement()
        } catch {
            throw failure(error.operation, error.path, error.errno)
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
