import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under /tmp for the real pipes and files of one test, removed with everything
/// in it when the test ends. Shared by the test targets; no production code imports this module.
public final class TemporaryDirectory {
    public let path: String

    public init() {
        var template = Array("/tmp/ambience-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit { Self.remove(path) }

    public func file(_ name: String) -> String { path + "/" + name }

    /// The permission bits of `name` in the directory; 0 when it is not there.
    public func mode(of name: String) -> UInt32 {
        var info = stat()
        guard lstat(file(name), &info) == 0 else { return 0 }
        return UInt32(info.st_mode & 0o777)
    }

    private static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in (try? FileSystem.entries(of: path)) ?? [] { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
