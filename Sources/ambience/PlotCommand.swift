import AmbienceCommandLine
import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbiencePlot
import AmbienceRecord
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let plotCommand = Command(
    name: "plot",
    summary: "draw a trace and the engine's decisions as an SVG picture, optionally against other settings",
    usage: """
        ambience plot TRACE|- --out FILE.svg [--config PATH | engine options] [--compare PATH]
                      [--title TEXT] [--boards DIR]

          Runs the engine over a trace (a record from 'ambience record', or any replay CSV) and
          draws one self-contained SVG: raw and filtered lux on a log axis over time, each
          boundary's fall and rise with the hysteresis band shaded, the state as a coloured band,
          sensor faults, overrides, a marker per event, and the summary table of replay --summary.
          The engine's settings come from --config (the daemon's TOML file) or from replay's
          options (--invert-regular FALL,RISE --regular-contrast FALL,RISE --tau --dwell --latency
          --interval --fault-after). --compare PATH adds a second configuration's state band,
          boundaries and column in the table: what those settings would have done. With a
          [display] table in --config, a band shows when the display would have slept, from the
          light alone (a trace holds no touches, and no time of day for awake windows).
          Exit 0 with the picture written; 1 on a malformed row or an unwritable FILE; 2 on bad
          usage; 78 on a configuration that breaks the guarantees.
        """,
    run: runPlot)

private func runPlot(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    guard let out = try arguments.option("--out") else { throw CommandFailure.usage("give --out FILE.svg") }
    let configPath = try arguments.option("--config")
    let comparePath = try arguments.option("--compare")
    let boards = try arguments.option("--boards")
    let title = try arguments.option("--title")
    var configuration = try engineConfiguration(&arguments, defaults: .indoorKiosk)
    var display: DisplaySleepConfiguration?
    guard let path = arguments.positional() else {
        throw CommandFailure.usage("give a trace: a CSV file, or - for standard input")
    }
    try arguments.finish()
    if let configPath {
        let loaded = try loadAtStart(configurationLoader(path: configPath, boards: boards))
        configuration = loaded.engine
        display = loaded.display?.sleep
    }
    var configurations = [(name: configPath ?? "command-line settings", configuration: configuration)]
    if let comparePath {
        let other = try loadAtStart(configurationLoader(path: comparePath, boards: boards)).engine
        configurations.append((comparePath, other))
    }

    let input = try openInput(path)
    defer { if input != .standardInput { input.close() } }
    var plot = PlotBuilder(configurations: configurations, display: display)
    var reader = LineReader(descriptor: input)
    var rows = TraceReader()
    do {
        try reader.forEachLine { line throws(TraceReader.RowError) in try rows.rows(line) { plot.add($0) } }
    } catch {
        throw CommandFailure(message: "\(path): \(error)", exitCode: .failure)
    }
    let svg = SVGPlot.render(plot, title: title ?? "Ambience: \(path == "-" ? "standard input" : path)")
    do {
        try writeOutput(out) { file throws(Errno) in try file.writeAll(svg) }
    } catch {
        throw CommandFailure(message: "\(error)", exitCode: .failure)
    }
    return .ok
}
