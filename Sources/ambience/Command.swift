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
        probeCommand,
        checkCommand,
        overrideCommand,
        statusCommand,
        watchCommand,
    ]

    static func main(_ words: [String]) -> Int32 {
        guard let name = words.first, name != "--help", name != "-h", name != "help" else {
            printOut(overview)
            return words.isEmpty ? ExitCode.usage.rawValue : ExitCode.ok.rawValue
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

    static var overview: String {
        let width = commands.map(\.name.count).max() ?? 0
        let lines = commands.map {
            "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary
        }
        return "usage: ambience COMMAND [OPTIONS]\n\ncommands:\n" + lines.joined(separator: "\n")
            + "\n\n'ambience COMMAND --help' shows a command's options."
    }
}

func printOut(_ text: String) {
    try? FileDescriptor.standardOutput.writeAll(text + "\n")
}

func printError(_ text: String) {
    try? FileDescriptor.standardError.writeAll(text + "\n")
}
