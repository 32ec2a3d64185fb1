import AmbienceClient
import AmbienceCommandLine
import AmbienceCore

let displayCommand = Command(
    name: "display",
    summary: "hold the display on or off (for a while), or give its sleep back to the room with 'auto'",
    usage: """
        ambience display on|off [for DURATION] [--control PATH]
        ambience display auto [--control PATH]

          Tells the running daemon through its control pipe (default \(RuntimePaths.controlPipe)).
          'off' puts the display to sleep and 'on' keeps it awake, whatever the room's light;
          a touch still wakes a display held off. DURATION is as for override: 90, 45s, 10m, 2h,
          1h30m, 1d, at most a year (365d). The daemon persists it across restarts until 'auto'
          or its end, and ignores it (with a line in its log) when no [display] is configured.
          Exit 0 when the daemon has the line; 1 when it is not running; 2 on bad usage.
        """,
    run: { arguments throws(CommandFailure) in
        try sendControlLine("display", &arguments, needs: "give on, off or auto") {
            line throws(ControlLine.ParseError) in _ = try ControlLine.parseDisplay(line)
        }
    })
