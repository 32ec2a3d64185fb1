import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

private func temporaryDirectory() -> String {
    var template = Array("/tmp/ambience-atomic-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

private func text(_ path: String) throws -> String {
    String(decoding: try FileSystem.contents(of: path), as: UTF8.self)
}

private func removeAll(_ directory: String) {
    for name in (try? FileSystem.entries(of: directory)) ?? [] {
        try? FileSystem.removeFile(directory + "/" + name)
    }
    rmdir(directory)
}

@Suite struct AtomicFileTests {
    @Test func aWriteThatFailsMidwayLeavesTheOldContentAndNoTemporary() throws {
        let directory = temporaryDirectory()
        defer { removeAll(directory) }
        let path = directory + "/override"
        try AtomicFile.replace(path, with: "invert\n", mode: 0o644)
        #expect(
            throws: AtomicFile.Failure(
                operation: "write", path: directory + "/.override.tmp", errno: .ioError)
        ) {
            try AtomicFile.replace(path, mode: 0o644) { file throws(Errno) in
                try file.writeAll("nor")
                throw .ioError
            }
        }
        #expect(try text(path) == "invert\n")
        #expect(try FileSystem.entries(of: directory) == ["override"])
    }

    @Test func aRenameThatFailsLeavesNoTemporary() throws {
        let directory = temporaryDirectory()
        defer { removeAll(directory) }
        let path = directory + "/taken"
        try FileSystem.makeDirectory(path, mode: 0o755)
        defer { rmdir(path) }
        #expect(throws: AtomicFile.Failure(operation: "replace", path: path, errno: .isDirectory)) {
            try AtomicFile.replace(path, with: "x\n", mode: 0o644)
        }
        #expect(try FileSystem.entries(of: directory) == ["taken"])
    }

    @Test func theNewContentReplacesTheOldWithTheModeAskedWhateverTheUmask() throws {
        let directory = temporaryDirectory()
        defer { removeAll(directory) }
        let path = directory + "/state"
        let mask = umask(0o077)
        defer { umask(mask) }
        try AtomicFile.replace(path, with: "old\n", mode: 0o600)
        let before = try FileSystem.status(of: path)
        try AtomicFile.replace(path, with: "new\n", mode: 0o644)
        #expect(try text(path) == "new\n")
        let after = try FileSystem.status(of: path)
        #expect(after.mode & 0o7777 == 0o644)
        // A new file, not the old one rewritten: a reader holding the old one reads it whole.
        #expect(!after.isSameFile(as: before))
        #expect(try FileSystem.entries(of: directory) == ["state"])
    }

    @Test func theGroupAskedIsGivenAndAnotherIsKept() throws {
        let directory = temporaryDirectory()
        defer { removeAll(directory) }
        let path = directory + "/record.csv"
        // Giving a file a group one is not in takes privilege: as root, any number will do.
        let other: gid_t = getuid() == 0 ? 4242 : getgid()
        try AtomicFile.replace(path, with: "a\n", mode: 0o640, group: other)
        #expect(try FileSystem.status(of: path).group == other)
        try AtomicFile.replace(path, with: "b\n", mode: 0o640)
        #expect(try FileSystem.status(of: path).group == other)
        #expect(try text(path) == "b\n")
    }

    @Test func aStreamedBodyIsWrittenWhole() throws {
        let directory = temporaryDirectory()
        defer { removeAll(directory) }
        let path = directory + "/long"
        let line = String(repeating: "0123456789", count: 10) + "\n"
        try AtomicFile.replace(path, mode: 0o644) { file throws(Errno) in
            var writer = BufferedWriter(descriptor: file, capacity: 1 << 12)
            for _ in 0..<1000 { try writer.write(line) }
            try writer.flush()
        }
        #expect(try FileSystem.contents(of: path).count == line.utf8.count * 1000)
    }

    @Test func theTemporaryIsHiddenBesideTheFile() {
        #expect(
            AtomicFile.temporaryPath(for: "/var/lib/ambience/override") == "/var/lib/ambience/.override.tmp")
        #expect(AtomicFile.temporaryPath(for: "plot.svg") == ".plot.svg.tmp")
    }

    @Test func aMissingDirectoryIsANamedError() {
        #expect(
            throws: AtomicFile.Failure(
                operation: "create", path: "/no/such/.dir.tmp", errno: .noSuchFileOrDirectory)
        ) {
            try AtomicFile.replace("/no/such/dir", with: "x", mode: 0o644)
        }
    }
}
