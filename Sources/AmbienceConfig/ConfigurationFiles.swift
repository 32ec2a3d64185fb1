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
        try FileSystem.contents(of: path, limit: Self.sizeLimit)
    }

    public func names(in directory: String) -> [String] {
        (try? FileSystem.entries(of: directory)) ?? []
    }
}
