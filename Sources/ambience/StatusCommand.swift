import AmbienceClient
import AmbienceCommandLine
import AmbienceOutputs
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let statusCommand = Command(
    name: "status",
    summary: "print the daemon's latest event line",
    usage: """
        ambience status [--state-file PATH]

          Prints the state file the daemon keeps (default \(StateFileSink.defaultPath)): its latest
          event as one JSON line. Exit 0 when there is one; 1 when the daemon is not running or
          has not sampled yet.
        """,
    run: runStatus)

private func runStatus(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let path = try arguments.option("--state-file") ?? StateFileSink.defaultPath
    try arguments.finish()
    let file: FileDescriptor
    do {
        file = try FileDescriptor.open(path, O_RDONLY)
    } catch .noSuchFileOrDirectory {
        throw CommandFailure(
            message: "the daemon is not running, or has not sampled yet (no \(path))", exitCode: .failure)
    } catch .permissionDenied {
        let hint = Access.hint(path, writing: false) ?? "its directory is not for this user"
        throw CommandFailure(message: "\(path): permission denied; \(hint)", exitCode: .failure)
    } catch {
        throw CommandFailure(message: "cannot read \(path): \(error)", exitCode: .failure)
    }
    defer { file.close() }
    var reader = LineReader(descriptor: file)
    guard let line = try? reader.nextLine(), !line.isEmpty else {
        throw CommandFailure(message: "\(path) is empty", exitCode: .failure)
    }
    printOut(String(decoding: line, as: UTF8.self))
    return .ok
}
