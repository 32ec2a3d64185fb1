import AmbienceCommandLine
import AmbienceConfig
import AmbienceMQTT
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let mqttCommand = Command(
    name: Companion.mqtt.rawValue,
    summary: Companion.mqtt.summary,
    usage: """
        ambience mqtt [--config PATH] [--pipe PATH]

          Publishes the daemon's state to an MQTT broker (and Home Assistant, by discovery) and takes
          overrides from it, for this kiosk (PREFIX/ID/override/set) or every kiosk (PREFIX/all/override/set),
          of the backlight's brightness (PREFIX/ID/brightness/set, PREFIX/all/brightness/set) and of the
          display's sleep (PREFIX/ID/display/set, PREFIX/all/display/set).
          Settings: the [mqtt] table of the configuration (default \(ConfigurationSource.defaultPath)).
          Follows the daemon's pipe --pipe (default: [mqtt] pipe, or \(MQTTConfiguration.defaultPipe); list it
          in [pipes] paths) across daemon restarts, and sends overrides through the daemon's control pipe.
          Runs until SIGTERM or SIGINT, publishing 'offline' before it leaves.
          Exit 0 after a signal; 1 when it cannot run (the pipe is not one); 2 on bad usage;
          78 when the configuration is wrong (FILE:LINE: KEY: message).
        """,
    run: runMQTT)

func runMQTT(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let configPath = try arguments.option("--config") ?? ConfigurationSource.defaultPath
    let pipeOption = try arguments.option("--pipe")
    try arguments.finish()

    var configuration: MQTTConfiguration
    do {
        configuration = try MQTTConfiguration.load(from: configPath)
    } catch {
        throw CommandFailure(
            message: error.errors.map { $0.description }.joined(separator: "\n"), exitCode: .configuration)
    }
    if let pipeOption { configuration.pipe = pipeOption }

    let deviceID: String
    if let configured = configuration.deviceID {
        deviceID = configured
    } else if let bytes = try? SystemConfigurationFiles().contents(of: "/etc/machine-id"),
        let derived = DeviceID.derived(fromMachineID: String(decoding: bytes, as: UTF8.self))
    {
        deviceID = derived
    } else {
        throw CommandFailure(
            message:
                "\(configPath): mqtt.device_id: not set, and /etc/machine-id cannot be read to derive one",
            exitCode: .configuration)
    }

    var password = configuration.password
    if let file = configuration.passwordFile {
        do {
            let text = String(decoding: try SystemConfigurationFiles().contents(of: file), as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            password = lines.first.map(String.init) ?? ""
        } catch {
            throw CommandFailure(message: "cannot read the password file \(file): \(error)")
        }
    }

    let session = Session(
        configuration: configuration, deviceID: deviceID, password: password, logger: Logger.standard)
    return session.run()
}

exit(mqttCommand.main(Arguments.programWords))
