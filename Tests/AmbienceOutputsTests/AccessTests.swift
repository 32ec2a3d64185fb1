import AmbienceClient
import AmbienceSystem
import AmbienceTestSupport
import Testing

@testable import AmbienceOutputs

#if canImport(Glibc)
    import Glibc
#endif

/// What a command says when the daemon's files refuse its user: who may, by mode and group.
@Suite struct AccessTests {
    let directory = TemporaryDirectory()

    func make(_ name: String, mode: mode_t) throws -> String {
        let path = directory.file(name)
        try AtomicFile.replace(path, with: "x\n", mode: mode)
        return path
    }

    var ownGroup: String { FileSystem.groupName(of: getegid()) ?? String(getegid()) }
    var ownUser: String { FileSystem.userName(of: geteuid()) ?? String(geteuid()) }

    @Test func aFileForItsGroupNamesTheGroupToJoin() throws {
        let path = try make("state.json", mode: 0o640)
        let expected =
            "it is for the group \(ownGroup) (mode 0o640): join it (sudo usermod -aG \(ownGroup) $USER) "
            + "and log in again"
        #expect(Access.hint(path, writing: false) == expected)
        let pipe = try make("state", mode: 0o660)
        #expect(
            Access.hint(pipe, writing: true)?.hasPrefix("it is for the group \(ownGroup) (mode 0o660)")
                == true)
    }

    @Test func aFileForItsOwnerNamesOwnerAndGroup() throws {
        let path = try make("control", mode: 0o600)
        #expect(
            Access.hint(path, writing: true, onlyOwner: "use sudo")
                == "only \(ownUser) and root may write it (mode 0o600, group \(ownGroup)): use sudo")
        // Group read but not write: still the owner's to write.
        let readable = try make("control2", mode: 0o640)
        let hint = Access.hint(readable, writing: true)
        #expect(hint?.hasPrefix("only \(ownUser) and root may write it") == true)
    }

    @Test func nothingToSayWithoutTheFile() {
        #expect(Access.hint(directory.file("missing"), writing: false) == nil)
    }

    @Test func theStateFileIsForTheDaemonsGroup() throws {
        let path = directory.file("run/state.json")
        let sink = try StateFileSink(path: path, renderTime: EventTime.seconds, log: LogRecorder().log)
        sink.deliver(change(.regular, from: nil, at: 1, reason: .startup))
        #expect(try FileSystem.status(of: path).mode & 0o777 == 0o640)
    }
}
