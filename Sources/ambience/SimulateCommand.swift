import AmbienceCommandLine
import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The chips `simulate` can emulate: every kind the configuration takes.
private let sensorKinds = DaemonConfiguration.SensorSettings.Kind.allCases.map { $0.rawValue }

let simulateCommand = Command(
    name: "simulate",
    summary: "the whole pipeline on a desktop, with an emulated sensor under a light profile",
    usage: """
        ambience simulate [--profile PROFILE] [--speed X] [--end DURATION] [--config PATH]
                          [--sensor \(sensorKinds.joined(separator: "|"))] [--runtime-dir DIR]

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

private func runSimulation(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let profileText = try arguments.option("--profile") ?? "day"
    let speed = try arguments.number("--speed") ?? 1
    let end = try arguments.option("--end").map { text throws(CommandFailure) in
        do throws(ControlLine.ParseError) { return try ControlLine.duration(text) } catch {
            throw CommandFailure.usage("--end: \(error)")
        }
    }
    let configPath = try arguments.option("--config")
    let boards = try arguments.option("--boards")
    let sensorKind = try arguments.option("--sensor").map { text throws(CommandFailure) in
        guard let kind = DaemonConfiguration.SensorSettings.Kind(rawValue: text) else {
            throw CommandFailure.usage(
                "--sensor must be \(sensorKinds.dropLast().joined(separator: ", ")) or \(sensorKinds.last ?? ""),"
                    + " not '\(text)'")
        }
        return kind
    }
    let runtimeDirectory = try arguments.option("--runtime-dir") ?? "/tmp/ambience-simulate"
    try arguments.finish()
    guard speed.isFinite, speed > 0 else { throw CommandFailure.usage("--speed must be a positive number") }

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
    let logger = Logger.standard
    let bus = MockI2CBus(name: "mock-i2c", clock: clock)
    let light = LightSwitchboard(profile: profile, bus: bus, address: configuration.sensor.address)
    let indicators = TerminalIndicators(colour: isatty(1) != 0, timeOfDay: light.timeOfDay) { text in
        try? FileDescriptor.standardOutput.writeAll(text)
    }
    let devices = SimulatedDevices(
        bus: bus, light: light.lux, world: light.advance, wallClockStart: light.wallClockStart, clock: clock,
        logger: logger, indicators: indicators)
    let daemon = Daemon(
        configuration: configuration, clock: clock,
        waiter: PacedLoopWaiter(try daemonSignals(), clock: clock),
        logger: logger,
        assemble: { configuration, parts throws(DaemonError) in
            try Assembly.parts(configuration, parts, devices: devices)
        },
        reload: { [sensorKind] () throws(ConfigFileErrors) in
            var next = try load()
            if let sensorKind { next.sensor = .init(kind: sensorKind) }
            return next
        })
    if case .typed = profile {
        daemon.loop.add(InputSource(.standardInput) { light.readTypedLux() })
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

/// The profile's text; a field that is not a number is reported as `--profile`'s.
private func lightProfile(_ text: String) throws(CommandFailure) -> LightSwitchboard.Source {
    do {
        return try LightSwitchboard.Source(parsing: text)
    } catch {
        if case .notANumber = error { throw CommandFailure.usage("--profile \(error)") }
        throw CommandFailure.usage("\(error)")
    }
}
