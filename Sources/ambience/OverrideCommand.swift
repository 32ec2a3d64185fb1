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

private func runOverride(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    try sendControlLine(
        "override", &arguments, needs: "give a state (invert, regular, contrast) or auto"
    ) { line throws(ControlLine.ParseError) in _ = try ControlLine.parse(line) }
}

/// `KEYWORD WORDS…` to the daemon's control pipe (`--control PATH`), checked first by the
/// parser the daemon reads it with, so that a bad line is a usage error (exit 2) here.
func sendControlLine(
    _ keyword: String, _ arguments: inout Arguments, needs: String,
    check: (String) throws(ControlLine.ParseError) -> Void
) throws(CommandFailure) -> ExitCode {
    let path = try arguments.option("--control") ?? RuntimePaths.controlPipe
    var words: [String] = []
    while let word = arguments.positional() { words.append(word) }
    try arguments.finish()
    guard !words.isEmpty else { throw CommandFailure.usage(needs) }
    let line = ([keyword] + words).joined(separator: " ")
    do {
        try check(line)
    } catch {
        throw CommandFailure.usage(error.message)
    }
    do {
        try DaemonControl.send(line, to: path)
    } catch {
        throw CommandFailure(message: error.description, exitCode: .failure)
    }
    return .ok
}
