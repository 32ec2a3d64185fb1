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

    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
