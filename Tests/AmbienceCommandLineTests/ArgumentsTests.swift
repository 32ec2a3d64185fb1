import AmbienceCommandLine
import Testing

/// The message of the usage error `body` throws, or nil when it throws none.
private func usageError(_ body: () throws(CommandFailure) -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return error.showsUsage && error.exitCode == .usage ? error.message : "not a usage error: \(error)"
    }
}

@Suite struct ArgumentsParsing {
    @Test func takesOptionsInEitherSpellingAndFlags() throws {
        var arguments = Arguments(["--config", "a.toml", "--speed=2.5", "--summary", "trace.csv"])
        let config = try arguments.option("--config")
        let speed = try arguments.number("--speed")
        let summary = arguments.flag("--summary")
        let again = arguments.flag("--summary")
        let trace = arguments.positional()
        let more = arguments.positional()
        #expect(config == "a.toml" && speed == 2.5 && summary && !again)
        #expect(trace == "trace.csv" && more == nil)
        try arguments.finish()
    }

    @Test func leftoversAreUsageErrors() {
        var arguments = Arguments(["--colour", "red"])
        #expect(
            usageError { () throws(CommandFailure) in try arguments.finish() } == "unknown option '--colour'")
        _ = arguments.flag("--colour")
        #expect(
            usageError { () throws(CommandFailure) in try arguments.finish() } == "unexpected argument 'red'")
        _ = arguments.positional()
        #expect(usageError { () throws(CommandFailure) in try arguments.finish() } == nil)
    }

    @Test func anOptionWithoutItsValueOrANumberThatIsNotOne() {
        var missing = Arguments(["--pipe"])
        #expect(
            usageError { () throws(CommandFailure) in _ = try missing.option("--pipe") }
                == "--pipe needs a value")
        var notANumber = Arguments(["--speed", "fast"])
        #expect(
            usageError { () throws(CommandFailure) in _ = try notANumber.number("--speed") }
                == "--speed: 'fast' is not a number")
        var infinite = Arguments(["--speed=inf"])
        #expect(
            usageError { () throws(CommandFailure) in _ = try infinite.number("--speed") }
                == "--speed: 'inf' is not a number")
    }

    @Test func afterDoubleDashEveryWordIsAnOperand() throws {
        var arguments = Arguments(["--", "--summary", "-"])
        let flag = arguments.flag("--summary")
        let option = try arguments.option("--summary")
        let first = arguments.positional()
        let second = arguments.positional()
        #expect(!flag && option == nil)
        #expect(first == "--summary" && second == "-")
        try arguments.finish()
    }

    @Test func anotherProgramsCommandLineStartsAtDoubleDashOrTheFirstOperand() throws {
        let options = ["--pipe", "--config"]
        var dashed = Arguments(["--pipe", "p", "--", "chromium", "--help"], commandAfter: options)
        let help = dashed.flag("--help")
        let pipe = try dashed.option("--pipe")
        #expect(dashed.command == ["chromium", "--help"])
        #expect(!help && pipe == "p")
        try dashed.finish()

        var bare = Arguments(["--config", "c.toml", "chromium", "--pipe", "x"], commandAfter: options)
        let config = try bare.option("--config")
        let browserPipe = try bare.option("--pipe")
        #expect(bare.command == ["chromium", "--pipe", "x"])
        #expect(config == "c.toml" && browserPipe == nil)
        try bare.finish()

        var none = Arguments(["--pipe"], commandAfter: options)
        #expect(none.command.isEmpty)
        #expect(
            usageError { () throws(CommandFailure) in _ = try none.option("--pipe") }
                == "--pipe needs a value")
    }
}

@Suite struct CommandHelp {
    static let command = Command(
        name: "override", summary: "hold a state",
        usage: """
            ambience override invert|regular|contrast [for DURATION]
                              [--control PATH]
            ambience override auto [--control PATH]

              Tells the running daemon.
            """,
        run: { _ in .ok })

    @Test func alignsTheSynopsisAfterUsage() {
        #expect(
            Self.command.help == """
                usage: ambience override invert|regular|contrast [for DURATION]
                                         [--control PATH]
                       ambience override auto [--control PATH]

                  Tells the running daemon.
                """)
    }

    @Test func exitCodesAreTheDocumentedOnes() {
        #expect([ExitCode.ok, .failure, .usage, .configuration].map(\.rawValue) == [0, 1, 2, 78])
        #expect(CommandFailure(message: "gone").exitCode == .failure)
    }
}
