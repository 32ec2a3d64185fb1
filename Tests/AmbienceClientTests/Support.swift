import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under /tmp, removed with everything in it when the test ends.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/ambience-client-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit { Self.remove(path) }

    func file(_ name: String) -> String { path + "/" + name }

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
