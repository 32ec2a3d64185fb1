import AmbienceDaemon
import AmbienceMQTT
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let usage = """
    usage: ambience mqtt [--config PATH] [--pipe PATH]

      Publishes the daemon's state to an MQTT broker (and Home Assistant, by discovery) and takes
      overrides from it, for this kiosk (PREFIX/ID/override/set) or every kiosk (PREFIX/all/override/set).
      Settings: the [mqtt] table of the configuration (default \(DaemonConfiguration.defaultPath)).
      Follows the daemon's pipe --pipe (default: [mqtt] pipe, or \(MQTTConfiguration.defaultPipe); list it
      in [pipes] paths) across daemon restarts, and sends overrides through the daemon's control pipe.
      Runs until SIGTERM or SIGINT, publishing 'offline' before it leaves.
      Exit 0 after a signal; 1 when it cannot run (the pipe is not one); 2 on bad usage;
      78 when the configuration is wrong (FILE:LINE: KEY: message).
    """

enum Exit: Int32 {
    case ok = 0
    case failure = 1
    case usage = 2
    case configuration = 78
}

func fail(_ message: String, _ code: Exit) -> Never {
    Logger.standard.log(.error, "ambience mqtt: \(message)")
    exit(code.rawValue)
}

var words = Array(CommandLine.arguments.dropFirst())
var configPath = DaemonConfiguration.defaultPath
var pipeOption: String?
while !words.isEmpty {
    let word = words.removeFirst()
    switch word {
    case "--help", "-h":
        try? FileDescriptor.standardOutput.writeAll(usage + "\n")
        exit(0)
    case "--config", "--pipe":
        guard !words.isEmpty else { fail("\(word) needs a value\n\(usage)", .usage) }
        let value = words.removeFirst()
        if word == "--config" { configPath = value } else { pipeOption = value }
    default:
        fail("unknown argument '\(word)'\n\(usage)", .usage)
    }
}

var configuration: MQTTConfiguration
do {
    configuration = try MQTTConfiguration.load(from: configPath)
} catch {
    fail(error.errors.map(\.description).joined(separator: "\n"), .configuration)
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
    fail(
        "\(configPath): mqtt.device_id: not set, and /etc/machine-id cannot be read to derive one",
        .configuration)
}

var password = configuration.password
if let file = configuration.passwordFile {
    do {
        let text = String(decoding: try SystemConfigurationFiles().contents(of: file), as: UTF8.self)
        password = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
    } catch {
        fail("cannot read the password file \(file): \(error)", .failure)
    }
}

let session = Session(
    configuration: configuration, deviceID: deviceID, password: password, logger: Logger.standard)
exit(session.run().rawValue)
