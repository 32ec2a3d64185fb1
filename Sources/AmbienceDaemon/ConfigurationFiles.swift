import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The loader's only way to the file system: read a file, list a directory.
public protocol ConfigurationFiles: Sendable {
    func contents(of path: String) throws(Errno) -> [UInt8]
    /// The entries of a directory; empty when it cannot be read.
    func names(in directory: String) -> [String]
}

/// The real file system.
public struct SystemConfigurationFiles: ConfigurationFiles {
    /// Far more than any configuration needs; stops `--config /dev/zero` from reading forever.
    static let sizeLimit = 1 << 20

    public init() {}

    public func contents(of path: String) throws(Errno) -> [UInt8] {
        let descriptor = try FileDescriptor.open(path, O_RDONLY)
        defer { descriptor.close() }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try descriptor.read(into: buffer) }
            }.get()
            if count == 0 { return contents }
            contents += chunk[..<count]
            if contents.count > Self.sizeLimit { throw Errno(rawValue: EFBIG) }
        }
    }

    public func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
