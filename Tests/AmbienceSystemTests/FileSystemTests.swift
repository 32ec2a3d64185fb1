import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under /tmp for one test; its contents are removed by the test itself.
private func temporaryDirectory() -> String {
    var template = Array("/tmp/ambience-system-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

@Suite struct FileSystemTests {
    @Test func aFIFOIsMadeAndRecognisedAndItsIdentityFollowsRenames() throws {
        let directory = temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/pipe"
        try FileSystem.makeFIFO(path, mode: 0o600)
        defer { try? FileSystem.removeFile(path) }
        #expect(throws: Errno.fileExists) { try FileSystem.makeFIFO(path, mode: 0o600) }
        let made = try FileSystem.status(of: path)
        #expect(made.isFIFO && !made.isDirectory)
        let pipe = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        defer { pipe.close() }
        #expect(try pipe.status().isSameFile(as: made))

        try FileSystem.rename(path, to: path + ".old")
        try FileSystem.makeFIFO(path, mode: 0o600)
        defer { try? FileSystem.removeFile(path + ".old") }
        #expect(!(try FileSystem.status(of: path).isSameFile(as: try pipe.status())))
        #expect(try FileSystem.status(of: path + ".old").isSameFile(as: try pipe.status()))
    }

    @Test func missingFilesAreNamedErrors() {
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.status(of: "/no/such/file") }
        #expect(throws: Errno.noSuchFileOrDirectory) {
            try FileSystem.removeFile("/tmp/no-such-ambience-file")
        }
        #expect(throws: Errno.noSuchFileOrDirectory) {
            try FileSystem.makeDirectory("/no/such/dir", mode: 0o700)
        }
    }

    @Test func groupsAreFoundByName() throws {
        #expect(try FileSystem.groupID(named: "root") == 0)
        #expect(try FileSystem.groupID(named: "no-such-group-for-ambience") == nil)
    }
}

@Suite struct InotifyTests {
    @Test func namesMadeAndRemovedInAWatchedDirectoryAreReported() throws {
        let directory = temporaryDirectory()
        defer { rmdir(directory) }
        let inotify = try Inotify()
        let watch = try inotify.watch(directory, for: [.created, .deleted])
        #expect(try inotify.read().isEmpty)  // never waits

        try FileSystem.makeFIFO(directory + "/state", mode: 0o600)
        try FileSystem.removeFile(directory + "/state")
        let events = try inotify.read()
        #expect(events.map(\.name) == ["state", "state"])
        #expect(events.map(\.watch) == [watch, watch])
        #expect(events.first?.events.contains(.created) == true)
        #expect(events.last?.events.contains(.deleted) == true)
    }

    @Test func watchingAMissingPathIsANamedError() throws {
        let inotify = try Inotify()
        #expect(throws: Errno.noSuchFileOrDirectory) {
            try inotify.watch("/no/such/directory", for: .created)
        }
    }
}
