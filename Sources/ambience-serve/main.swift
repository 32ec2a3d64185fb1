import AmbienceClient
import AmbienceCommandLine
import AmbienceConfig
import AmbienceCore
import AmbienceServe
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let serveCommand = Command(
    name: Companion.serve.rawValue,
    summary: Companion.serve.summary,
    usage: """
        ambience serve [--listen ADDRESS:PORT] [--pipe PATH] [--origin ORIGIN] [--allow-remote]
                       [--config PATH]

          Gives web pages the state over HTTP: GET /state (the latest event, JSON; 503 before the
          first), /events (Server-Sent Events: `current` first, then every event), /ambience.js (one
          <script> line makes a page follow the room), / (a page showing the three themes).
          Follows its own named pipe (default /run/ambience/serve: list it in the daemon's
          [pipes] paths), waiting for it and following a restarted daemon's new one.
          --listen   default 127.0.0.1:8470; an address other than loopback needs --allow-remote
          --origin   Access-Control-Allow-Origin, default * (the data is read-only)
          --config   the [serve] table of this file (default /etc/ambience/ambience.toml when it
                     exists); options on the command line win over it
          Runs until SIGTERM or SIGINT. Exit 0 after a signal, 1 on a runtime failure (cannot
          listen, the pipe's path is not a pipe), 2 on a usage error, 78 on a configuration error.
        """,
    run: runServe)

/// A value the command line gives that is not one: exit 2, without the usage after it.
func badValue(_ message: String) -> CommandFailure {
    CommandFailure(message: message, exitCode: .usage)
}

func runServe(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let listen = try arguments.option("--listen")
    let pipe = try arguments.option("--pipe")
    let origin = try arguments.option("--origin")
    let config = try arguments.option("--config")
    let allowRemote = arguments.flag("--allow-remote")
    try arguments.finish()
    var configuration: ServeConfiguration
    do {
        configuration = try ServeConfiguration.load(
            from: config ?? ConfigurationSource.defaultPath, required: config != nil)
    } catch {
        throw CommandFailure(message: "\(error)", exitCode: .configuration)
    }
    if allowRemote { configuration.allowRemote = true }
    if let text = listen {
        guard let address = ListenAddress(parsing: text) else {
            throw badValue("--listen: '\(text)' is not ADDRESS:PORT (127.0.0.1:8470, [::1]:8470)")
        }
        configuration.listen = address
    }
    if !configuration.listen.isLoopback && !configuration.allowRemote {
        throw badValue(
            "\(configuration.listen) is not a loopback address; --allow-remote (or"
                + " allow_remote = true in [serve]) to listen there")
    }
    if let origin {
        guard ServeConfiguration.isOrigin(origin) else {
            throw badValue("--origin: '\(origin)' is not * or an origin (https://host:port)")
        }
        configuration.allowedOrigin = origin
    }
    if let pipe {
        guard pipe.hasPrefix("/") else { throw badValue("--pipe: '\(pipe)' must be an absolute path") }
        configuration.pipe = pipe
    }
    return try serve(configuration)
}

/// Listens, follows the pipe, and serves both on the event loop until a signal.
func serve(_ configuration: ServeConfiguration) throws(CommandFailure) -> ExitCode {
    let loop: EventLoop
    let server: HTTPServer
    let clock = SystemClock()
    do {
        loop = EventLoop(
            waiter: SignalLoopWaiter(try SignalWaiter(signals: [SIGTERM, SIGINT]), clock: clock))
    } catch {
        throw CommandFailure(error)
    }
    raiseDescriptorLimit()
    do {
        server = try HTTPServer(
            listen: configuration.listen, router: HTTPRouter(allowedOrigin: configuration.allowedOrigin))
    } catch {
        throw CommandFailure(error)
    }
    var shown = configuration.listen
    shown.port = server.port
    Logger.standard.log(
        .notice, "ambience serve: listening on http://\(shown)/, following \(configuration.pipe)")
    let service = Service(server: server, pipe: configuration.pipe, clock: clock, loop: loop)
    loop.add(service)
    loop.run()
    loop.remove(service)
    server.stop()
    if let failure = service.failure { throw CommandFailure(failure) }
    return .ok
}

/// Each connection is a descriptor: the soft limit up to the hard one, for the connection limit.
func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else {
        return
    }
    limit.rlim_cur = min(limit.rlim_max, 4096)
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

exit(serveCommand.main(Arguments.programWords))
