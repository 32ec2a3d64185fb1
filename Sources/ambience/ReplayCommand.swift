import AmbienceCommandLine
import AmbienceCore
import AmbienceRecord
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let replayCommand = Command(
    name: "replay",
    summary: "run the engine over a CSV trace of seconds,lux in simulated time",
    usage: """
        ambience replay FILE|- [--format json|plain] [--summary]
                              [--invert-regular FALL,RISE] [--regular-contrast FALL,RISE]
                              [--tau S] [--dwell S] [--latency S] [--interval S] [--fault-after S]

          Reads rows of seconds,lux (an optional header, '#' comments; 'nan' or an empty lux field
          is a failed read) and writes one event line per event (the pipe's JSON lines), "time"
          being the row's seconds. Defaults (an indoor kiosk at 10 Hz): --invert-regular 20,50
          --regular-contrast 2500,5000 --tau 2 --dwell 5 --latency 12 --interval 0.1 --fault-after 5.
          A record from 'ambience record' replays with its overrides. --summary prints, instead of
          the events, a table: switches per day, time in each state, the longest wait from a clear
          level to its state against L, switches within 60 s of the one before.
          Exit 0 at the end of the trace; 1 on a malformed row, after the events of the rows
          before it; 2 on bad usage; 78 on thresholds or timing that break the guarantees.
        """,
    run: runReplay)

private func runReplay(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let format =
        try arguments.option("--format").map { text throws(CommandFailure) in
            guard let format = EventLine.Format(rawValue: text) else {
                throw CommandFailure.usage("--format must be json or plain, not '\(text)'")
            }
            return format
        } ?? .json
    let summarize = arguments.flag("--summary")
    let configuration = try engineConfiguration(&arguments, defaults: .indoorKiosk)
    guard let path = arguments.positional() else {
        throw CommandFailure.usage("give a CSV file, or - for standard input")
    }
    try arguments.finish()

    let input = try openInput(path)
    defer { if input != .standardInput { input.close() } }

    var replay = Replay(configuration: configuration, format: format, summarize: summarize)
    var reader = LineReader(descriptor: input)
    var output = BufferedWriter(descriptor: .standardOutput)
    // The events of the rows before a malformed one are written before the error.
    func failure(_ error: some Error & CustomStringConvertible) -> CommandFailure {
        try? output.flush()
        return CommandFailure(message: "\(path): \(error)", exitCode: .failure)
    }
    while true {
        let line: ArraySlice<UInt8>?
        let events: [String]
        do throws(Errno) { line = try reader.nextLine() } catch { throw failure(error) }
        guard let line else { break }
        do throws(Replay.RowError) { events = try replay.consume(line) } catch { throw failure(error) }
        if summarize { continue }
        do throws(Errno) {
            for event in events { try output.write(event) }
        } catch {
            throw failure(error)
        }
    }
    if let totals = replay.totals {
        do throws(Errno) { try output.write(SummaryTable.text([totals], names: [path])) } catch {
            throw failure(error)
        }
    }
    do throws(Errno) { try output.flush() } catch { throw failure(error) }
    return .ok
}

/// The engine's thresholds and timing from command-line options over `defaults`.
func engineConfiguration(_ arguments: inout Arguments, defaults: EngineConfiguration) throws(CommandFailure)
    -> EngineConfiguration
{
    func boundary(_ name: String, _ fallback: Boundary) throws(CommandFailure) -> Boundary {
        guard let text = try arguments.option(name) else { return fallback }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let fall = parts[0], let rise = parts[1] else {
            throw CommandFailure.usage("\(name) takes FALL,RISE in lux, like 20,50; not '\(text)'")
        }
        return Boundary(fall: fall, rise: rise)
    }
    let invertRegular = try boundary("--invert-regular", defaults.thresholds.invertRegular)
    let regularContrast = try boundary("--regular-contrast", defaults.thresholds.regularContrast)
    let timeConstant = try arguments.number("--tau") ?? defaults.timeConstant
    let minimumDwell = try arguments.number("--dwell") ?? defaults.minimumDwell
    let latencyBound = try arguments.number("--latency") ?? defaults.latencyBound
    let sampleInterval = try arguments.number("--interval") ?? defaults.sampleInterval
    let faultAfter = try arguments.number("--fault-after") ?? defaults.faultAfter
    do throws(ConfigurationError) {
        return try EngineConfiguration(
            thresholds: Thresholds(invertRegular: invertRegular, regularContrast: regularContrast),
            timeConstant: timeConstant, minimumDwell: minimumDwell, latencyBound: latencyBound,
            sampleInterval: sampleInterval, faultAfter: faultAfter)
    } catch {
        // Thresholds or timing that break the guarantees: a configuration error, exit 78.
        throw CommandFailure(error.renamingKey(optionName), exitCode: .configuration)
    }
}

/// The option that sets each of the engine's values.
private func optionName(_ field: String) -> String? {
    switch EngineField(rawValue: field) {
    case .invertRegular, .invertRegularFall, .invertRegularRise: "--invert-regular"
    case .regularContrast, .regularContrastFall, .regularContrastRise: "--regular-contrast"
    case .timeConstant: "--tau"
    case .minimumDwell: "--dwell"
    case .latencyBound: "--latency"
    case .sampleInterval: "--interval"
    case .faultAfter: "--fault-after"
    case nil: nil
    }
}
