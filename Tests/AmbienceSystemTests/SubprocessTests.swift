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
