import AmbienceSystem

/// One command of `ambience`, a companion program included: its help, declared once, and what it
/// runs. `ambience --help` lists the name and summary; `--help` prints the usage; the man pages'
/// synopses and the command table of docs/commands.md are checked against both
/// (Tests/cli/help-agreement.py).
public struct Command: Sendable {
    /// The word after `ambience`: `run`, `kiosk`, …
    public var name: String
    /// One line for `ambience --help` and, for a companion, its man page's NAME.
    public var summary: String
    /// Its synopsis, one form per line starting with `ambience NAME` (a longer form goes on in
    /// lines that start with spaces); then, after a blank line, what it does, indented by two.
    public var usage: String
    /// When set, the command runs another program's command line (`Arguments.command`), which
    /// starts at `--` or at the first operand; these are the options before it that take a value.
    public var passesCommand: [String]?
    public var run: @Sendable (inout Arguments) throws(CommandFailure) -> ExitCode

    public init(
        name: String, summary: String, usage: String, passesCommand: [String]? = nil,
        run: @escaping @Sendable (inout Arguments) throws(CommandFailure) -> ExitCode
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.passesCommand = passesCommand
        self.run = run
    }

    /// The usage as `--help` prints it: the synopsis after `usage: `, each form's lines aligned.
    public var help: String {
        var lines = usage.split(separator: "\n", omittingEmptySubsequences: false)
        let synopsisEnd = lines.firstIndex(where: { $0.isEmpty }) ?? lines.endIndex
        for index in lines.indices[..<synopsisEnd] {
            lines[index] = (index == lines.startIndex ? "usage: " : "       ") + lines[index]
        }
        return lines.joined(separator: "\n")
    }

    /// Runs the command on the words after its name, and returns the exit code: 0 after `--help`
    /// (or `-h`); otherwise the command's, or the error's, printed as `ambience NAME: message`
    /// at err (a usage error followed by the usage), which is what journald keeps.
    public func main(_ words: [String]) -> Int32 {
        var arguments = passesCommand.map { Arguments(words, commandAfter: $0) } ?? Arguments(words)
        if arguments.flag("--help") || arguments.flag("-h") {
            try? FileDescriptor.standardOutput.writeAll(help + "\n")
            return ExitCode.ok.rawValue
        }
        do {
            return try run(&arguments).rawValue
        } catch {
            fatal("ambience \(name): \(error.message)" + (error.showsUsage ? "\n" + help : ""))
            return error.exitCode.rawValue
        }
    }
}

/// A message that ends a program: at err in the journal, as every program's fatal ones are.
public func fatal(_ text: String) {
    Logger.standard.log(.error, text)
}

/// The programs beside `ambience` that talk to a browser or a broker, each its own executable
/// `ambience-NAME` so that the daemon's binary links no network library; `ambience NAME …`
/// becomes that program. Their summaries live here, for `ambience --help` and the programs alike.
public enum Companion: String, CaseIterable, Sendable {
    case kiosk, serve, mqtt

    public var summary: String {
        switch self {
        case .kiosk: "start a browser whose pages follow the room (Chromium's media features)"
        case .serve: "give web pages the state over loopback HTTP (JSON, Server-Sent Events, a script)"
        case .mqtt: "publish every event to an MQTT broker and Home Assistant, take overrides from it"
        }
    }
}
