import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let runCommand = Command(
    name: "run",
    summary: "the daemon: sample the sensor, drive the lines, pipes and state file",
    usage: """
        ambience run [--config PATH] [--boards DIR]

          Runs until SIGTERM or SIGINT, then turns every indicator line off and releases it.
          SIGHUP reloads the configuration (default \(DaemonConfiguration.defaultPath)); an invalid
          one is logged and the running one kept. Under systemd (Type=notify) it reports
          READY=1 after the first state, WATCHDOG=1 from the sampling loop and STATUS= lines.
          Exit 0 after a clean shutdown; 1 when a device cannot be used; 78 on a bad configuration.
        """,
    run: runDaemon)

private func runDaemon(_ arguments: inout Arguments) throws -> ExitCode {
    let path = try arguments.option("--config") ?? DaemonConfiguration.defaultPath
    let boards = try arguments.option("--boards")
    try arguments.finish()
    let load = configurationLoader(path: path, boards: boards)
    let configuration = try load()
    let clock = SystemClock()
    let logger = Logger()
    let daemon = Daemon(
        configuration: configuration, clock: clock,
        waiter: SignalLoopWaiter(try SignalWaiter(signals: [SIGTERM, SIGINT, SIGHUP]), clock: clock),
        logger: logger, notifier: ServiceNotifier(),
        assemble: { try Assembly.real($0, clock: clock, logger: logger) }, reload: load)
    logger.log(
        .info,
        "ambience \(configuration.sensor.kind.rawValue) on bus \(configuration.sensor.bus), config \(path)")
    try startFailures(configuration) { try daemon.run() }
    return .ok
}

/// Loads `path` with the board profiles of `--boards` or the usual places; every fault becomes
/// one line of a configuration failure (exit 78).
func configurationLoader(path: String, boards: String?) -> () throws -> DaemonConfiguration {
    let directories =
        boards.map { [$0] }
        ?? DaemonConfiguration.boardDirectories(
            environment: getenv("AMBIENCE_BOARDS").map { String(cString: $0) })
    return {
        do throws(ConfigFileErrors) {
            return try DaemonConfiguration.load(from: path, boardDirectories: directories)
        } catch {
            throw CommandFailure(
                message: error.errors.map(\.description).joined(separator: "\n"), exitCode: .configuration)
        }
    }
}

/// Maps what can stop the daemon at start to the documented exit codes: a key the devices
/// reject (a missing chip, an offset out of range) is a configuration error; the rest are
/// runtime failures, explained with their hints.
func startFailures(_ configuration: DaemonConfiguration, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as OutputError {
        if let refusal = error.configurationError {
            throw CommandFailure(message: configuration.locate(refusal).description, exitCode: .configuration)
        }
        throw CommandFailure(message: error.description, exitCode: .failure)
    } catch let error as I2CError {
        throw CommandFailure(message: error.description, exitCode: .failure)
    } catch let error as Errno {
        throw CommandFailure(message: "cannot start: \(error)", exitCode: .failure)
    }
}
