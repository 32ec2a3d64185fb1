import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// Small read-only file system queries: what `/dev` and `/sys` hold, and where a link points.
public enum FileSystem {
    /// The names in a directory, without "." and "..", in no particular order.
    public static func entries(of path: String) throws(Errno) -> [String] {
        guard let directory = opendir(path) else { throw Errno.current }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The target of a symbolic link, as stored (often relative).
    public static func linkTarget(of path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try retryOnInterrupt { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A whole file, refused (EFBIG) past `limit` bytes so that a device node cannot make a
    /// reader read forever.
    public static func contents(of path: String, limit: Int = 1 << 20) throws(Errno) -> [UInt8] {
        let descriptor = try FileDescriptor.open(path, O_RDONLY)
        defer { descriptor.close() }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(limit + 1, 1 << 14))
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try descriptor.read(into: buffer) }
            }.get()
            if count == 0 { return contents }
            contents += chunk[..<count]
            if contents.count > limit { throw Errno(rawValue: EFBIG) }
        }
    }

    /// At most the first `count` bytes of a file, however long it is: a header, read without
    /// reading on.
    public static func prefix(of path: String, count: Int) throws(Errno) -> [UInt8] {
        let descriptor = try FileDescriptor.open(path, O_RDONLY)
        defer { descriptor.close() }
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let got = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in
                    try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
            }.get()
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// The first line of a small text file, without its newline: how sysfs attributes read.
    public static func firstLine(of path: String) throws(Errno) -> String {
        let bytes = try contents(of: path, limit: 4096)
        return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}

/// What stat(2) says about a file, the parts this project looks at.
public struct FileStatus: Equatable, Sendable {
    /// The type and permission bits (`st_mode`).
    public var mode: mode_t
    public var owner: uid_t
    public var group: gid_t
    /// The device and inode: together, which file this is, whatever its name now.
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64

    public init(_ info: stat) {
        mode = info.st_mode
        owner = info.st_uid
        group = info.st_gid
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
    }

    public var isFIFO: Bool { mode & S_IFMT == S_IFIFO }
    public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }

    /// The same file, as opposed to another one at the same path.
    public func isSameFile(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }
}

extension FileSystem {
    /// stat(2), or lstat(2) when `followingLinks` is false.
    public static func status(of path: String, followingLinks: Bool = true) throws(Errno) -> FileStatus {
        var info = stat()
        _ = try retryOnInterrupt { followingLinks ? stat(path, &info) : lstat(path, &info) }
        return FileStatus(info)
    }

    /// mkdir(2) of one directory; its parent must exist.
    public static func makeDirectory(_ path: String, mode: mode_t) throws(Errno) {
        _ = try retryOnInterrupt { mkdir(path, mode) }
    }

    /// mkfifo(3): a named pipe, with `mode` less the umask.
    public static func makeFIFO(_ path: String, mode: mode_t) throws(Errno) {
        _ = try retryOnInterrupt { mkfifo(path, mode) }
    }

    /// rename(2): replaces `destination` in one step.
    public static func rename(_ source: String, to destination: String) throws(Errno) {
        _ = try retryOnInterrupt { Glibc.rename(source, destination) }
    }

    public static func removeFile(_ path: String) throws(Errno) {
        _ = try retryOnInterrupt { unlink(path) }
    }

    /// The id of the group named `name`; nil when there is no such group.
    public static func groupID(named name: String) throws(Errno) -> gid_t? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        while true {
            let status = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
            if status == ERANGE, buffer.count < 1 << 20 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            if status == EINTR { continue }
            // getgrnam_r reports "no such group" as 0 with no result, or as one of these.
            if status == 0 || status == ENOENT || status == ESRCH || status == EBADF || status == EPERM {
                return result == nil ? nil : entry.gr_gid
            }
            throw Errno(rawValue: status)
        }
    }

    /// The name of group `id`; nil when it has none.
    public static func groupName(of id: gid_t) -> String? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        while true {
            let status = getgrgid_r(id, &entry, &buffer, buffer.count, &result)
            if status == ERANGE, buffer.count < 1 << 20 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            if status == EINTR { continue }
            guard status == 0, result != nil, let name = entry.gr_name else { return nil }
            return String(cString: name)
        }
    }

    /// The name of user `id`; nil when it has none.
    public static func userName(of id: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        while true {
            let status = getpwuid_r(id, &entry, &buffer, buffer.count, &result)
            if status == ERANGE, buffer.count < 1 << 20 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            if status == EINTR { continue }
            guard status == 0, result != nil, let name = entry.pw_name else { return nil }
            return String(cString: name)
        }
    }
}
