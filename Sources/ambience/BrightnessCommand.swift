import AmbienceClient
import AmbienceCommandLine
import AmbienceCore

let brightnessCommand = Command(
    name: "brightness",
    summary: "hold the backlight at a percent (for a while), or give it back to the light with 'auto'",
    usage: """
        ambience brightness PERCENT [for DURATION] [--control PATH]
        ambience brightness auto [--control PATH]

          Tells the running daemon through its control pipe (default \(RuntimePaths.controlPipe)).
          PERCENT is a whole number 0 to 100; 0 is the display's dimmest lit step, never off.
          DURATION is as for override: 90, 45s, 10m, 2h, 1h30m, 1d, at most a year (365d). The
          daemon persists it across restarts until 'auto' or its end, and ignores it (with a
          line in its log) when no [backlight] is configured.
          Exit 0 when the daemon has the line; 1 when it is not running; 2 on bad usage.
        """,
    run: { arguments throws(CommandFailure) in
        try sendControlLine("brightness", &arguments, needs: "give a percent (0 to 100) or auto") {
            line throws(ControlLine.ParseError) in _ = try ControlLine.parseBrightness(line)
        }
    })
