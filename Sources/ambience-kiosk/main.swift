import AmbienceCommandLine
import AmbienceConfig
import AmbienceKiosk
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let kioskCommand = Command(
    name: Companion.kiosk.rawValue,
    summary: Companion.kiosk.summary,
    usage: """
        ambience kiosk [--pipe PATH] [--config PATH] -- BROWSER [ARGS...]

          Runs BROWSER (Chromium or Chrome) and keeps the colour scheme of all its pages, windows
          they open included, at the room's state, through the DevTools protocol on a pipe
          (--remote-debugging-pipe, added; no network port). It follows the daemon's named pipe
          PATH (default [kiosk] pipe, else /run/ambience/kiosk: list it in the daemon's
          pipes.paths), waiting for it and keeping the last state while the daemon is away.
          The [kiosk] table of the configuration (default /etc/ambience/ambience.toml, when it
          exists) maps each state to media features, and says whether to restart the browser.
          The browser gets --user-data-dir=$XDG_STATE_HOME/ambience/kiosk-browser (or
          ~/.local/state/…) unless its arguments or [kiosk] user_data_dir name one.
          The -- before BROWSER may be left out.
          Exit: the browser's status (128+N for signal N) when it exits; 0 after SIGTERM/SIGINT
          (the browser is ended first); 1 when the browser cannot run or does not answer on the
          pipe; 2 for a usage error; 78 for a configuration error.
        """,
    passesCommand: ["--pipe", "--config"],
    run: runKiosk)

func runKiosk(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let pipe = try arguments.option("--pipe")
    let configuration = try arguments.option("--config")
    do {
        try arguments.finish()
    } catch {
        throw CommandFailure.usage(error.message + " (the browser's command comes after --)")
    }
    let browserWords = arguments.command
    guard let program = browserWords.first, !program.isEmpty else {
        throw CommandFailure.usage("no browser given: ambience kiosk -- chromium --kiosk URL")
    }
    var settings: KioskSettings
    do {
        let path = configuration ?? ConfigurationSource.defaultPath
        if configuration == nil, !FileSystem.exists(path) {
            settings = KioskSettings()
        } else {
            settings = try KioskSettings.load(from: path)
        }
    } catch {
        throw CommandFailure(
            message: error.errors.map { $0.description }.joined(separator: "\nambience kiosk: "),
            exitCode: .configuration)
    }
    if let pipe { settings.pipe = pipe }
    let environment = Environment.current
    let profile =
        settings.userDataDirectory
        ?? BrowserCommand.defaultProfile(
            stateHome: Environment.value(of: "XDG_STATE_HOME", in: environment),
            home: Environment.value(of: "HOME", in: environment), userID: getuid())
    if BrowserCommand.userDataDirectory(in: browserWords) == nil {
        do {
            try makeDirectories(profile)
        } catch {
            throw CommandFailure(message: "cannot make the browser's profile directory \(profile): \(error)")
        }
    }
    let kiosk: Kiosk
    do {
        kiosk = try Kiosk(
            settings: settings, arguments: BrowserCommand.arguments(browserWords, profile: profile))
    } catch {
        throw CommandFailure(message: "cannot set up: \(error)")
    }
    return ExitCode(rawValue: kiosk.run())
}

/// `mkdir -p`, private to the user: a browser profile holds cookies and logins.
func makeDirectories(_ path: String) throws(Errno) {
    var prefix = ""
    for component in path.split(separator: "/") {
        prefix += "/" + component
        do {
            try FileSystem.makeDirectory(prefix, mode: 0o700)
        } catch .fileExists {
            continue
        }
    }
}

exit(kioskCommand.main(Arguments.programWords))
