import AmbienceConfig
import AmbienceKiosk
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let usage = """
    usage: ambience kiosk [--pipe PATH] [--config PATH] -- BROWSER [ARGS…]

      Runs BROWSER (Chromium or Chrome) and keeps the colour scheme of all its pages, windows
      they open included, at the room's state, through the DevTools protocol on a pipe
      (--remote-debugging-pipe, added; no network port). It follows the daemon's named pipe
      PATH (default [kiosk] pipe, else /run/ambience/kiosk: list it in the daemon's
      pipes.paths), waiting for it and keeping the last state while the daemon is away.
      The [kiosk] table of the configuration (default /etc/ambience/ambience.toml, when it
      exists) maps each state to media features, and says whether to restart the browser.
      The browser gets --user-data-dir=$XDG_STATE_HOME/ambience/kiosk-browser (or
      ~/.local/state/…) unless its arguments or [kiosk] user_data_dir name one.
      Exit: the browser's status (128+N for signal N) when it exits; 0 after SIGTERM/SIGINT
      (the browser is ended first); 1 when the browser cannot run or does not answer on the
      pipe; 2 for a usage error; 78 for a configuration error.
    """

func main(_ words: [String]) -> Int32 {
    var pipe: String?
    var configuration: String?
    var index = 0
    while index < words.count {
        let word = words[index]
        switch word {
        case "--help", "-h":
            try? FileDescriptor.standardOutput.writeAll(usage + "\n")
            return 0
        case "--pipe", "--config":
            guard index + 1 < words.count else { return usageError("\(word) needs a value") }
            if word == "--pipe" { pipe = words[index + 1] } else { configuration = words[index + 1] }
            index += 2
            continue
        case "--":
            index += 1
        case _ where !word.hasPrefix("-"):
            break  // the browser's command, without the -- before it
        default:
            return usageError("unknown option '\(word)' (the browser's command comes after --)")
        }
        break
    }
    let browserWords = Array(words[index...])
    guard let program = browserWords.first, !program.isEmpty else {
        return usageError("no browser given: ambience kiosk -- chromium --kiosk URL")
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
        log(.error, error.errors.map(\.description).joined(separator: "\nambience kiosk: "))
        return 78
    }
    if let pipe { settings.pipe = pipe }
    let environment = Environment.current
    func variable(_ name: String) -> String? {
        environment.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }
    let profile =
        settings.userDataDirectory
        ?? BrowserCommand.defaultProfile(
            stateHome: variable("XDG_STATE_HOME"), home: variable("HOME"), userID: getuid())
    if BrowserCommand.userDataDirectory(in: browserWords) == nil {
        do {
            try makeDirectories(profile)
        } catch {
            log(.error, "cannot make the browser's profile directory \(profile): \(error)")
            return 1
        }
    }
    let kiosk: Kiosk
    do {
        kiosk = try Kiosk(
            settings: settings, arguments: BrowserCommand.arguments(browserWords, profile: profile))
    } catch {
        log(.error, "cannot set up: \(error)")
        return 1
    }
    return kiosk.run()
}

func usageError(_ message: String) -> Int32 {
    log(.error, "\(message)\n\(usage)")
    return 2
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

exit(main(Array(CommandLine.arguments.dropFirst())))
