import AmbienceCommandLine
import AmbienceConfig
import AmbienceDaemon
import AmbienceKiosk
import AmbienceMQTT
import AmbienceServe

let checkCommand = Command(
    name: "check",
    summary: "validate the configuration and its board, and print the configuration as resolved",
    usage: """
        ambience check [--config PATH] [--boards DIR]

          Reads the configuration (default \(ConfigurationSource.defaultPath)) and the board profile
          it names, checks every table of it (the daemon's, [kiosk], [serve] and [mqtt]), and prints
          the daemon's and the kiosk's configuration as TOML: every key, defaults and board values
          included; with [display], the desktop's own screen blanking, if any, with how the two work
          together. Board profiles are looked for in DIR if given, else in $AMBIENCE_BOARDS
          (colon-separated), /usr/local/share/ambience/boards and /usr/share/ambience/boards.
          Exit 0 when valid; 78 with every error on standard error, one per line as
          FILE:LINE: KEY: MESSAGE, when not (or when the file cannot be read); 2 on bad usage.
        """,
    run: runCheck)

private func runCheck(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let path = try arguments.option("--config") ?? ConfigurationSource.defaultPath
    let boards = try arguments.option("--boards")
    try arguments.finish()
    let configuration = try loadAtStart(
        configurationLoader(path: path, boards: boards) { root, decoder in
            ProgramTable.check(
                [KioskSettings.table, ServeConfiguration.table, MQTTConfiguration.table], in: root,
                decoder: &decoder)
        })
    // Valid, so the kiosk's table reads as it did in the check.
    let kiosk = (try? KioskSettings.load(from: path)) ?? KioskSettings()
    printOut("# \(path): valid\n" + String((configuration.tomlText + kiosk.tomlText).dropLast()))
    if configuration.display != nil {
        let advice =
            configuration.sessionDisplayAdvice(kioskPipe: kiosk.pipe)
            + DesktopBlanking.advice(DesktopBlanking.look(), session: configuration.displayDevice == .session)
        if !advice.isEmpty { printOut(advice.joined(separator: "\n")) }
    }
    return .ok
}
