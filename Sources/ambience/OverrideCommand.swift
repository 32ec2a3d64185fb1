import AmbienceClient
import AmbienceCommandLine
import AmbienceCore

let overrideCommand = Command(
    name: "override",
    summary: "hold a state (for a while), or go back to the light with 'auto'",
    usage: """
        ambience override invert|regular|contrast [for DURATION] [--control PATH]
        ambience override auto [--control PATH]

          Tells the running daemon through its control pipe (default \(RuntimePaths.controlPipe)).
          DURATION is seconds or numbers with units: 90, 45s, 10m, 2h, 1h30m, 1d, at most a year
          (365d). The daemon persists the override across restarts until 'auto' or its end.
          Exit 0 when the daemon has the line; 1 when it is not running; 2 on bad usage.
        """,
    run: runOverride)

private func runOverride(_ arguments: inout Arguments) throws -> ExitCode {
    let path = try arguments.option("--control") ?? RuntimePaths.controlPipe
    var words: [String] = []
    while let word = arguments.positional() { words.append(word) }
    try arguments.finish()
    guard !words.isEmpty else { throw UsageError("give a state (invert, regular, contrast) or auto") }
    let line = (["override"] + words).joined(separator: " ")
    do {
        _ = try ControlLine.parse(line)
    } catch {
        throw UsageError(error.message)
    }
    do {
        try DaemonControl.send(line, to: path)
    } catch {
        throw CommandFailure(message: error.description, exitCode: .failure)
    }
    return .ok
}
