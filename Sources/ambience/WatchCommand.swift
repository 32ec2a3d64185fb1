import AmbienceCore
import AmbienceOutputs
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let watchCommand = Command(
    name: "watch",
    summary: "follow the named pipe: print each state, or run a command on each change",
    usage: """
        ambience watch [--pipe PATH] [--exec CMD]

          Follows the daemon's named pipe (default /run/ambience/state, JSON or plain), waiting
          for it to appear, and follows its path: a daemon that restarts, even with a new pipe
          made there, is read again. Prints each new state word, or with --exec runs CMD
          with /bin/sh on each new state, the first one included, with
          AMBIENCE_STATE, AMBIENCE_PREVIOUS (the state CMD last ran with, empty the first time)
          and AMBIENCE_LUX (empty when unknown) in its environment. One CMD at a time: states
          that come while it runs are skipped but the newest, which it runs with next.
          Runs until interrupted; exit 1 when the path is not a named pipe or cannot be read.
        """,
    run: runWatch)

private func runWatch(_ arguments: inout Arguments) throws -> ExitCode {
    let path = try arguments.option("--pipe") ?? NamedPipeSink.Configuration().path
    let command = try arguments.option("--exec")
    try arguments.finish()

    let pipe = PipeFollower(path: path)
    var follower = StateFollower()
    while true {
        let event: PipeFollower.Event
        do {
            event = try pipe.next(timeout: .infinity)
        } catch {
            throw CommandFailure(message: error.description, exitCode: .failure)
        }
        switch event {
        case .missing:
            printError("ambience watch: waiting for \(path) to appear (is the daemon running?)")
        case .data(let bytes):
            // A read takes everything that piled up while a command ran, so this acts on
            // the newest state only.
            guard let update = follower.consume(bytes) else { continue }
            if let command {
                run(command, for: update)
            } else {
                printOut(update.state.rawValue)
            }
        case .closed:
            follower.disconnected()
        case .opened, .timedOut:
            continue
        }
    }
}

/// Runs `command` with the update in its environment and waits for it.
private func run(_ command: String, for update: StateFollower.Update) {
    let added = [
        "AMBIENCE_STATE=" + update.state.rawValue,
        "AMBIENCE_PREVIOUS=" + (update.previous?.rawValue ?? ""),
        "AMBIENCE_LUX=" + (update.lux ?? ""),
    ]
    var environment: [String] = []
    var entry = environ
    while let pointer = entry.pointee {
        let variable = String(cString: pointer)
        if !added.contains(where: { variable.hasPrefix($0.prefix { $0 != "=" } + "=") }) {
            environment.append(variable)
        }
        entry = entry.successor()
    }
    environment += added

    let arguments = ["/bin/sh", "-c", command]
    var process = pid_t()
    let status = withCStringArray(arguments) { argv in
        withCStringArray(environment) { envp in posix_spawn(&process, "/bin/sh", nil, nil, argv, envp) }
    }
    guard status == 0 else {
        printError("ambience watch: cannot run /bin/sh: \(Errno(rawValue: status))")
        return
    }
    var exitStatus: Int32 = 0
    while waitpid(process, &exitStatus, 0) < 0 && errno == EINTR {}
    // WIFEXITED/WEXITSTATUS are macros Swift does not import.
    let signal = exitStatus & 0x7f
    let code = (exitStatus >> 8) & 0xff
    if signal != 0 {
        printError("ambience watch: the command for \(update.state.rawValue) ended by signal \(signal)")
    } else if code != 0 {
        printError("ambience watch: the command for \(update.state.rawValue) exited with \(code)")
    }
}

/// A NULL-terminated C array of C strings, alive during `body`.
private func withCStringArray<R>(
    _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
) -> R {
    let copies = strings.map { strdup($0) } + [nil]
    defer { for copy in copies { free(copy) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}
