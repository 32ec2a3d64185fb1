import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let simulateCommand = Command(
    name: "simulate",
    summary: "the whole pipeline on a desktop, with an emulated sensor under a light profile",
    usage: """
        ambience simulate [--profile PROFILE] [--speed X] [--end DURATION] [--config PATH]
                          [--sensor bh1750|tsl2561] [--runtime-dir DIR]

          Runs the daemon's loop with the configured chip emulated on a mock I2C bus, the
          indicator lines drawn on the terminal, and the real pipes, state file and control pipe.
          PROFILE: day (a compressed day: night, dawn, clouds, sunlight, a passing cloud, a sensor
          hiccup, dusk, a lamp; 24 h of simulated time), step[:BEFORE:AFTER:AT], noise[:LUX[:SPREAD]],
          csv:FILE (seconds,lux rows; nan unplugs the sensor), stdin (type a lux value per line).
          --speed runs simulated time X times faster (default 1); --end stops after DURATION of
          simulated time (90, 10m, 24h). Without --config: defaults for a kiosk, with the pipe,
          state file and control pipe in --runtime-dir (default /tmp/ambience-simulate).
          Exit 0 at the end or on SIGINT/SIGTERM; 78 on a bad configuration.
        """,
    run: runSimulation)

private func runSimulation(_ arguments: inout Arguments) throws -> ExitCode {
    let profileText = try arguments.option("--profile") ?? "day"
    let speed = try arguments.number("--speed") ?? 1
    let end = try arguments.option("--end").map { text throws(UsageError) in
        do { return try ControlLine.duration(text) } catch { throw UsageError("--end: \(error)") }
    }
    let configPath = try arguments.option("--config")
    let boards = try arguments.option("--boards")
    let sensorKind = try arguments.option("--sensor").map { text throws(UsageError) in
        guard let kind = DaemonConfiguration.SensorSettings.Kind(rawValue: text) else {
            throw UsageError("--sensor must be bh1750 or tsl2561, not '\(text)'")
        }
        return kind
    }
    let runtimeDirectory = try arguments.option("--runtime-dir") ?? "/tmp/ambience-simulate"
    try arguments.finish()
    guard speed.isFinite, speed > 0 else { throw UsageError("--speed must be a positive number") }

    let load: Daemon.Reload
    if let configPath {
        load = configurationLoader(path: configPath, boards: boards)
    } else {
        let defaults = DaemonConfiguration(
            sensor: .init(kind: .bh1750),
            pipes: DaemonConfiguration.PipeSettings(paths: [runtimeDirectory + "/state"]),
            stateFile: runtimeDirectory + "/state.json", controlPipe: runtimeDirectory + "/control",
            stateDirectory: runtimeDirectory + "/lib")
        load = { () throws(ConfigFileErrors) in defaults }
    }
    var configuration = try loadAtStart(load)
    if let sensorKind { configuration.sensor = .init(kind: sensorKind) }
    let profile = try lightProfile(profileText)

    let clock = PacedClock(speed: speed)
    let logger = Logger()
    let bus = MockI2CBus(name: "mock-i2c", clock: clock)
    let light = LightSwitchboard(profile: profile, bus: bus, address: configuration.sensor.address)
    let indicators = TerminalIndicators(colour: isatty(1) != 0, timeOfDay: light.timeOfDay) { text in
        try? FileDescriptor.standardOutput.writeAll(text)
    }
    let daemon = Daemon(
        configuration: configuration, clock: clock,
        waiter: SignalLoopWaiter(try SignalWaiter(signals: [SIGTERM, SIGINT, SIGHUP]), clock: clock),
        logger: logger,
        assemble: { [light] configuration, parts throws(DaemonError) in
            try Assembly.simulated(
                configuration, parts: parts, bus: bus, light: light.lux, world: light.advance,
                wallClockStart: light.wallClockStart,
                clock: clock, logger: logger, indicators: indicators)
        },
        reload: { [sensorKind] () throws(ConfigFileErrors) in
            var next = try load()
            if let sensorKind { next.sensor = .init(kind: sensorKind) }
            return next
        })
    if case .typed = profile {
        daemon.watch(.standardInput) { light.readTypedLux() }
    }
    let pipes = configuration.pipes.paths.joined(separator: ", ")
    logger.log(
        .info,
        "simulating a \(configuration.sensor.kind.rawValue) under '\(profileText)' at \(EventLine.number(speed))× speed;"
            + " pipe: \(pipes.isEmpty ? "none" : pipes), state file: \(configuration.stateFile)")
    do {
        try daemon.run(until: end)
    } catch {
        throw CommandFailure(error)
    }
    return .ok
}

/// The simulated world's light: a profile, or lux typed on standard input; a `nan` row of a
/// trace unplugs the emulated chip until the next number.
final class LightSwitchboard: @unchecked Sendable {
    enum Source {
        case profile(LightProfile)
        case typed
    }

    private let source: Source
    private let bus: MockI2CBus
    private let address: I2CAddress
    private var typedLux = 300.0
    private var unplugged = false
    private var input = LineReader(descriptor: .standardInput, chunkSize: 256)
    private let unpluggedRanges: [Range<Double>]

    init(profile: Source, bus: MockI2CBus, address: I2CAddress) {
        source = profile
        self.bus = bus
        self.address = address
        if case .profile(.day(let length)) = profile {
            let start = LightProfile.dayHiccup.hour / 24 * length
            unpluggedRanges = [start..<(start + LightProfile.dayHiccup.hours / 24 * length)]
        } else {
            unpluggedRanges = []
        }
    }

    func lux(at time: Double) -> Double {
        guard case .profile(let profile) = source else { return typedLux }
        let value = profile.lux(at: time)
        return value.isNaN ? 0 : value
    }

    /// Before each read: the sensor is unplugged during the day's hiccup and at `nan` rows.
    func advance(to time: Double) {
        guard case .profile(let profile) = source else { return }
        plug(!profile.lux(at: time).isNaN && !unpluggedRanges.contains { $0.contains(time) })
    }

    /// The wall-clock time the simulation starts at, for event lines: a simulated day starts at
    /// today's midnight (UTC), so its lines carry the hours the terminal shows; others start now.
    var wallClockStart: Double {
        guard case .profile(.day) = source else { return WallClock.now }
        return (WallClock.now / 86_400).rounded(.down) * 86_400
    }

    func timeOfDay(_ time: Double) -> String {
        guard case .profile(.day(let length)) = source else {
            return "t=" + EventLine.number((time * 10).rounded() / 10) + "s"
        }
        let minutes = Int((time / length * 24 * 60).rounded(.down)) % (24 * 60)
        return (minutes / 60 < 10 ? "0" : "") + "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "")
            + "\(minutes % 60)"
    }

    /// What one read of standard input brought: a lux value, or `nan` to unplug the sensor, per
    /// line. False at the end of the input, which is then watched no more.
    func readTypedLux() -> Bool {
        repeat {
            guard let line = try? input.nextLine() else { return false }
            let text = String(decoding: line, as: UTF8.self).trimmingSpaces
            if text.lowercased() == "nan" {
                plug(false)
            } else if let value = Double(text), value.isFinite, value >= 0 {
                typedLux = value
                plug(true)
            }
        } while input.hasBufferedLine
        return true
    }

    private func plug(_ connected: Bool) {
        guard connected == unplugged else { return }
        unplugged = !connected
        if connected { bus.replug(address) } else { bus.unplug(address) }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

private func lightProfile(_ text: String) throws(UsageError) -> LightSwitchboard.Source {
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    let numbers = parts.count > 1 ? parts[1].split(separator: ":").map { Double($0) } : []
    func number(_ index: Int, _ fallback: Double) throws(UsageError) -> Double {
        guard index < numbers.count else { return fallback }
        guard let value = numbers[index], value.isFinite, value >= 0 else {
            throw UsageError("--profile \(text): '\(parts[1])' holds something that is not a number")
        }
        return value
    }
    switch parts[0] {
    case "day": return .profile(.day(length: 86_400))
    case "step":
        return .profile(.step(before: try number(0, 5), after: try number(1, 30_000), at: try number(2, 30)))
    case "noise": return .profile(.noise(level: try number(0, 2500), spread: try number(1, 0.3)))
    case "stdin": return .typed
    case "csv" where parts.count == 2: return .profile(.trace(try trace(parts[1])))
    default: throw UsageError("unknown profile '\(text)': use day, step, noise, csv:FILE or stdin")
    }
}

private func trace(_ path: String) throws(UsageError) -> [(time: Double, lux: Double)] {
    let file: FileDescriptor
    do { file = try FileDescriptor.open(path, O_RDONLY) } catch { throw UsageError("csv:\(path): \(error)") }
    defer { file.close() }
    var lines = LineReader(descriptor: file)
    var reader = TraceReader()
    var rows: [(time: Double, lux: Double)] = []
    do {
        while let line = try lines.nextLine() {
            // A failed read (nan) in the trace unplugs the emulated sensor for that row.
            if let row = try reader.row(line) { rows.append((row.time, row.lux ?? .nan)) }
        }
    } catch {
        throw UsageError("csv:\(path): \(error)")
    }
    return rows
}
