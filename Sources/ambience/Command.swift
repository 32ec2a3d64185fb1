import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The exit codes of docs/guarantees.md §7.
enum ExitCode: Int32 {
    case ok = 0
    case failure = 1
    case usage = 2
    case configuration = 78
}

/// A runtime failure the command already explained, carrying the exit code to end with.
struct CommandFailure: Error {
    var message: String
    var exitCode: ExitCode
}

struct Command: Sendable {
    var name: String
    var summary: String
    var usage: String
    var run: @Sendable (inout Arguments) throws -> ExitCode
}

enum Ambience {
    static let commands: [Command] = [
        runCommand,
        simulateCommand,
        replayCommand,
        plotCommand,
        probeCommand,
        checkCommand,
        overrideCommand,
        recordCommand,
        statusCommand,
        watchCommand,
    ]

    /// The programs that talk to a browser or a broker. Each is its own executable beside this one,
    /// `ambience-NAME`, so that the daemon's binary links no network library; `ambience NAME …`
    /// becomes that program.
    static let companions: [(name: String, summary: String)] = [
        ("kiosk", "start a browser whose pages follow the room (Chromium's media features)"),
        ("serve", "give web pages the state over loopback HTTP (JSON, Server-Sent Events, a script)"),
        ("mqtt", "publish every event to an MQTT broker and Home Assistant, take overrides from it"),
    ]

    static func main(_ words: [String]) -> Int32 {
        guard let name = words.first, name != "--help", name != "-h", name != "help" else {
            printOut(overview)
            return words.isEmpty ? ExitCode.usage.rawValue : ExitCode.ok.rawValue
        }
        if companions.contains(where: { $0.name == name }) {
            return runCompanion(name, Array(words.dropFirst()))
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            printError("ambience: unknown command '\(name)'\n\n" + overview)
            return ExitCode.usage.rawValue
        }
        var arguments = Arguments(Array(words.dropFirst()))
        if arguments.flag("--help") || arguments.flag("-h") {
            printOut("usage: " + command.usage)
            return ExitCode.ok.rawValue
        }
        do {
            return try command.run(&arguments).rawValue
        } catch let error as UsageError {
            printError("ambience \(name): \(error.message)\nusage: \(command.usage)")
            return ExitCode.usage.rawValue
        } catch let error as ConfigurationError {
            printError("ambience \(name): \(error)")
            return ExitCode.configuration.rawValue
        } catch let error as CommandFailure {
            printError("ambience \(name): \(error.message)")
            return error.exitCode.rawValue
        } catch {
            printError("ambience \(name): \(error)")
            return ExitCode.failure.rawValue
        }
    }

    /// Becomes `ambience-NAME` from this binary's own directory; returns only when it cannot.
    static func runCompanion(_ name: String, _ arguments: [String]) -> Int32 {
        let directory: String
        do {
            let own = try FileSystem.linkTarget(of: "/proc/self/exe")
            directory = String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)])
        } catch {
            printError("ambience \(name): cannot find this program's directory: \(error)")
            return ExitCode.failure.rawValue
        }
        let path = directory + "/ambience-" + name
        do {
            try Subprocess.replaceProcess(with: path, arguments: [path] + arguments)
        } catch {
            printError("ambience \(name): cannot run \(path): \(error) (is it installed?)")
            return ExitCode.failure.rawValue
        }
    }

    static var overview: String {
        let entries = commands.map { ($0.name, $0.summary) } + companions.map { ($0.name, $0.summary) }
        let width = entries.map(\.0.count).max() ?? 0
        let lines = entries.map {
            "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1
        }
        return "usage: ambience COMMAND [OPTIONS]\n\ncommands:\n" + lines.joined(separator: "\n")
            + "\n\n'ambience COMMAND --help' shows a command's options."
    }
}

/// A file named on the command line for reading, "-" being standard input.
func openInput(_ path: String) throws(CommandFailure) -> FileDescriptor {
    do {
        return path == "-" ? .standardInput : try FileDescriptor.open(path, O_RDONLY)
    } catch {
        throw CommandFailure(message: "cannot open \(path): \(error)", exitCode: .failure)
    }
}

func printOut(_ text: String) {
    try? FileDescriptor.standardOutput.writeAll(text + "\n")
}

/// A message that ends the command: at `error` in the journal, as every program's fatal ones.
func printError(_ text: String) {
    Logger.standard.log(.error, text)
}
