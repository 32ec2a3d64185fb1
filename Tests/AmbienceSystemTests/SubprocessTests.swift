import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SubprocessTests {
    private func shell(_ script: String, environment: [String] = []) throws -> Subprocess.ExitStatus {
        try Subprocess.run("/bin/sh", arguments: ["/bin/sh", "-c", script], environment: environment)
    }

    @Test func theExitCodeIsReported() throws {
        #expect(try shell("exit 0") == .exited(0))
        #expect(try shell("exit 3") == .exited(3))
        #expect(try shell("exit 255") == .exited(255))
    }

    @Test func aSignalThatEndsItIsReported() throws {
        #expect(try shell("kill -TERM $$") == .signaled(SIGTERM))
        #expect(try shell("kill -KILL $$") == .signaled(SIGKILL))
    }

    @Test func itGetsTheEnvironmentGivenAndNoOther() throws {
        #expect(
            try shell("[ \"$GREETING\" = 'hello there' ]", environment: ["GREETING=hello there"])
                == .exited(0))
        // Not inherited: only what is passed.
        #expect(try shell("[ -z \"${HOME+set}\" ]", environment: []) == .exited(0))
    }

    @Test func spawnMapsDescriptorsAndDoesNotWait() throws {
        // The child reads a line from its fd 3 and writes it back to its fd 4, as a browser on
        // --remote-debugging-pipe does; its descriptors are blocking, ours are what we made them.
        let toChild = try FileDescriptor.makePipe()
        let fromChild = try FileDescriptor.makePipe()
        let process = try Subprocess.spawn(
            "sh", arguments: ["sh", "-c", "read line <&3; echo \"got $line\" >&4"], environment: [],
            descriptors: [(toChild.read, 3), (fromChild.write, 4)], newProcessGroup: true)
        toChild.read.close()
        fromChild.write.close()
        defer {
            toChild.write.close()
            fromChild.read.close()
        }
        #expect(try Subprocess.reap(process) == nil)
        try toChild.write.writeAll("hello\n")
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(Errno) in try fromChild.read.read(into: bytes) }
        }.get()
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "got hello\n")
        var status: Subprocess.ExitStatus?
        for _ in 0..<1000 where status == nil {
            status = try Subprocess.reap(process)
            if status == nil { usleep(5000) }
        }
        #expect(status == .exited(0))
    }

    @Test func aSpawnedProcessLeadsItsOwnGroupAndCanBeKilledWithIt() throws {
        let process = try Subprocess.spawn(
            "/bin/sh", arguments: ["sh", "-c", "sleep 30"], environment: [], newProcessGroup: true)
        #expect(getpgid(process) == process)
        Subprocess.signal(-process, SIGKILL)
        var status: Subprocess.ExitStatus?
        for _ in 0..<1000 where status == nil {
            status = try Subprocess.reap(process)
            if status == nil { usleep(5000) }
        }
        #expect(status == .signaled(SIGKILL))
        #expect(status?.shellStatus == 137)
    }

    @Test func aMissingProgramIsAnError() {
        #expect(throws: Errno.noSuchFileOrDirectory) {
            try Subprocess.run("/no/such/program", arguments: ["program"], environment: [])
        }
    }
}

@Suite struct EnvironmentTests {
    @Test func settingReplacesAVariableOfTheSameNameAndAddsTheRest() {
        let entries = ["PATH=/bin", "AMBIENCE_STATE=invert", "AMBIENCE_STATEFUL=yes", "EMPTY="]
        let result = Environment.setting(["AMBIENCE_STATE": "contrast", "AMBIENCE_LUX": ""], in: entries)
        #expect(
            result == [
                "PATH=/bin", "AMBIENCE_STATEFUL=yes", "EMPTY=", "AMBIENCE_STATE=contrast", "AMBIENCE_LUX=",
            ])
    }

    @Test func currentIsTheProcessEnvironment() {
        setenv("AMBIENCE_SUBPROCESS_TEST", "a=b", 1)
        #expect(Environment.current.contains("AMBIENCE_SUBPROCESS_TEST=a=b"))
    }

    @Test func aChildSeesTheVariablesSet() throws {
        let environment = Environment.setting(["AMBIENCE_STATE": "regular"], in: Environment.current)
        let status = try Subprocess.run(
            "/bin/sh", arguments: ["/bin/sh", "-c", "[ \"$AMBIENCE_STATE\" = regular ] && [ -n \"$PATH\" ]"],
            environment: environment)
        #expect(status == .exited(0))
    }
}
