import AmbienceClient
import AmbienceCommandLine
import AmbienceCore

let whitePointCommand = Command(
    name: "whitepoint",
    summary:
        "hold the display's white at a colour temperature (for a while), or give it back to the room with 'auto'",
    usage: """
        ambience whitepoint KELVIN [for DURATION] [--control PATH]
        ambience whitepoint auto [--control PATH]

          Tells the running daemon through its control pipe (default \(RuntimePaths.controlPipe)).
          KELVIN is a whole number 1000 to 15000, with or without its K (5000K). The white moves
          there at [whitepoint] ramp, as any change does.
          DURATION is as for override: 90, 45s, 10m, 2h, 1h30m, 1d, at most a year (365d). The
          daemon persists it across restarts until 'auto' or its end, and ignores it (with a
          line in its log) when no [whitepoint] is configured.
          Exit 0 when the daemon has the line; 1 when it is not running; 2 on bad usage.
        """,
    run: { arguments throws(CommandFailure) in
        try sendControlLine("whitepoint", &arguments, needs: "give a white in kelvin (1000 to 15000) or auto")
        {
            line throws(ControlLine.ParseError) in _ = try ControlLine.parseWhitePoint(line)
        }
    })
