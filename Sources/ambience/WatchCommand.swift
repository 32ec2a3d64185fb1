import AmbienceClient
import AmbienceCommandLine
import AmbienceCore
import AmbienceSystem

let watchCommand = Command(
    name: "watch",
    summary: "follow the named pipe: print each state, or run a command on each change",
    usage: """
        ambience watch [--pipe PATH] [--exec CMD]

          Follows the daemon's named pipe (default /run/ambience/state, JSON or plain), waiting
          for it to appear, and follows its path: a restarted daemon is read again, even when
          it made a new pipe there. Prints each new state word, or with --exec runs CMD with
          /bin/sh on each new state, the first one included, with AMBIENCE_STATE,
          AMBIENCE_PREVIOUS (the state CMD last ran with, empty the first time) and AMBIENCE_LUX
          (empty when unknown) in its environment. One CMD at a time: states that come while
          it runs are skipped but the newest, which it runs with next.
          Runs until interrupted; exit 1 when the path is not a named pipe or cannot be read.
        """,
    run: runWatch)

private func runWatch(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let path = try arguments.option("--pipe") ?? RuntimePaths.statePipe
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
            Logger.standard.log(
                .notice, "ambience watch: waiting for \(path) to appear (is the daemon running?)")
        case .data(let bytes):
            // A read takes everything that piled up while a command ran, so this acts on
            // the newest state only.
            let update = follower.consume(bytes)
            let skipped = follower.takeSkipped()
            if skipped > 0 {
                Logger.standard.log(
                    .warning, "ambience watch: \(path): " + LineFramer.skippedMessage(skipped))
            }
            guard let update else { continue }
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
    let environment = Environment.setting(
        [
            "AMBIENCE_STATE": update.state.rawValue,
            "AMBIENCE_PREVIOUS": update.previous?.rawValue ?? "",
            "AMBIENCE_LUX": update.lux ?? "",
        ], in: Environment.current)
    let status: Subprocess.ExitStatus
    do {
        status = try Subprocess.run(
            "/bin/sh", arguments: ["/bin/sh", "-c", command], environment: environment)
    } catch {
        Logger.standard.log(.error, "ambience watch: cannot run /bin/sh: \(error)")
        return
    }
    switch status {
    case .exited(0):
        break
    case .exited(let code):
        Logger.standard.log(
            .warning, "ambience watch: the command for \(update.state.rawValue) exited with \(code)")
    case .signaled(let signal):
        Logger.standard.log(
            .warning, "ambience watch: the command for \(update.state.rawValue) ended by signal \(signal)")
    }
}
