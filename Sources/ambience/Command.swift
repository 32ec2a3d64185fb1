import AmbienceCommandLine
import AmbienceCore
import AmbienceDaemon
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

enum Ambience {
    static let commands: [Command] = [
        runCommand,
        simulateCommand,
        replayCommand,
        plotCommand,
        probeCommand,
        checkCommand,
        overrideCommand,
        brightnessCommand,
        displayCommand,
        whitePointCommand,
        recordCommand,
        statusCommand,
        watchCommand,
    ]

    static func main(_ words: [String]) -> Int32 {
        guard let name = words.first, name != "--help", name != "-h", name != "help" else {
            printOut(overview)
            return words.isEmpty ? ExitCode.usage.rawValue : ExitCode.ok.rawValue
        }
        if let companion = Companion(rawValue: name) {
            return become("ambience-" + companion.rawValue, name: name, Array(words.dropFirst()))
        }
        if name == runCommand.name {
            return become("ambience-run", name: name, Array(words.dropFirst()))
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            fatal("ambience: unknown command '\(name)'\n\n" + overview)
            return ExitCode.usage.rawValue
        }
        return command.main(Array(words.dropFirst()))
    }

    /// Becomes `program` (`ambience-NAME`) from this binary's own directory, for `ambience NAME`;
    /// returns only when it cannot.
    static func become(_ program: String, name: String, _ arguments: [String]) -> Int32 {
        let directory: String
        do {
            let own = try FileSystem.linkTarget(of: "/proc/self/exe")
            directory = String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)])
        } catch {
            fatal("ambience \(name): cannot find this program's directory: \(error)")
            return ExitCode.failure.rawValue
        }
        let path = directory + "/" + program
        do {
            try Subprocess.replaceProcess(with: path, arguments: [path] + arguments)
        } catch {
            fatal("ambience \(name): cannot run \(path): \(error) (is it installed?)")
            return ExitCode.failure.rawValue
        }
    }

    static var overview: String {
        let entries =
            commands.map { ($0.name, $0.summary) } + Companion.allCases.map { ($0.rawValue, $0.summary) }
        let width = entries.map { $0.0.count }.max() ?? 0
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

/// Writes a command's output file: a regular one (or a new one) through `AtomicFile`, so that
/// a command interrupted or failing leaves the old file whole; a device or a pipe
/// (`/dev/stdout`) has no old content to keep and is written in place.
func writeOutput(_ path: String, writing body: (FileDescriptor) throws(Errno) -> Void) throws(AtomicFile
    .Failure)
{
    if let status = try? FileSystem.status(of: path), status.mode & S_IFMT != S_IFREG {
        do throws(Errno) {
            let file = try FileDescriptor.open(path, O_WRONLY | O_TRUNC)
            defer { file.close() }
            try body(file)
        } catch {
            throw AtomicFile.Failure(operation: "write", path: path, errno: error)
        }
        return
    }
    try AtomicFile.replace(path, mode: 0o644, writing: body)
}
