import AmbienceCommandLine
import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `ambience run`, the daemon's own command line: `ambience-run`, the executable the unit
/// starts through `ambience run`, is only this, so it carries none of the other commands' code.
public let runCommand = Command(
    name: "run",
    summary: "the daemon: sample the sensor, drive the lines, pipes and state file",
    usage: """
        ambience run [--config PATH] [--boards DIR]

          Runs until SIGTERM or SIGINT, then turns every indicator line off and releases it.
          SIGHUP reloads the configuration (default \(ConfigurationSource.defaultPath)); an invalid
          one is logged and the running one kept. Under systemd (Type=notify) it reports
          READY=1 after the first state, WATCHDOG=1 from its loop and STATUS= lines.
          Exit 0 after a clean shutdown; 1 when a device cannot be used; 78 on a bad configuration.
        """,
    run: runDaemon)

private func runDaemon(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let path = try arguments.option("--config") ?? ConfigurationSource.defaultPath
    let boards = try arguments.option("--boards")
    try arguments.finish()
    let load = configurationLoader(path: path, boards: boards)
    let configuration = try loadAtStart(load)
    let clock = SystemClock()
    let logger = Logger.standard
    // A read-only state directory is one warning and state in RAM, never a failed unit.
    let state = StateDirectory(log: { logger.log(.warning, $0) })
    let devices = MachineDevices(clock: clock, logger: logger, state: state)
    let daemon = Daemon(
        configuration: configuration, clock: clock,
        waiter: SignalLoopWaiter(try daemonSignals(), clock: clock),
        logger: logger, notifier: ServiceNotifier(),
        overrides: { OverrideStore(directory: $0.storing(in: state).stateDirectory) },
        assemble: { [devices] configuration, parts throws(DaemonError) in
            try Assembly.parts(configuration, parts, devices: devices)
        },
        reload: load)
    logger.log(
        .notice,
        "ambience \(configuration.sensor.kind.rawValue) on \(configuration.sensor.bus), config \(path)")
    do {
        try daemon.run()
    } catch {
        throw CommandFailure(error)
    }
    return .ok
}

/// The signals a daemon, real or simulated, ends on (TERM, INT) or reloads on (HUP).
public func daemonSignals() throws(CommandFailure) -> SignalWaiter {
    do {
        return try SignalWaiter(signals: [SIGTERM, SIGINT, SIGHUP])
    } catch {
        throw CommandFailure(error)
    }
}

/// Loads `path` with the board profiles of `--boards` or the usual places; `others` checks
/// other programs' tables of the same file alongside.
public func configurationLoader(
    path: String, boards: String?,
    alsoChecking others: @escaping (ConfigurationDecoder.Section, inout ConfigurationDecoder) -> Void = {
        _, _ in
    }
) -> Daemon.Reload {
    let directories =
        boards.map { [$0] }
        ?? ConfigurationSource.boardDirectories(
            environment: getenv("AMBIENCE_BOARDS").map { String(cString: $0) })
    return { () throws(ConfigFileErrors) in
        try DaemonConfiguration.load(from: path, boardDirectories: directories, alsoChecking: others)
    }
}

/// The configuration a command starts with: every fault one line of a configuration failure.
public func loadAtStart(_ load: Daemon.Reload) throws(CommandFailure) -> DaemonConfiguration {
    do {
        return try load()
    } catch {
        throw CommandFailure(message: error.description, exitCode: .configuration)
    }
}

extension CommandFailure {
    /// The documented exit codes: a configuration the file or the devices refuse is 78 (each
    /// fault at FILE:LINE: KEY); a device that cannot be used now, or parts lost, is 1.
    public init(_ error: DaemonError) {
        switch error {
        case .configuration: self.init(message: error.description, exitCode: .configuration)
        case .unavailable, .partsLost: self.init(message: error.description, exitCode: .failure)
        }
    }
}
