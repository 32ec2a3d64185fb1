import AmbienceConfig
import AmbienceMQTT
import AmbienceSystem
import Testing

/// The `[mqtt]` table, read from the daemon's file with its FILE:LINE: KEY errors.
struct MQTTConfigurationTests {
    static let path = "/etc/ambience/ambience.toml"

    struct Files: ConfigurationFiles {
        var text: String
        func contents(of path: String) throws(Errno) -> [UInt8] {
            guard path == MQTTConfigurationTests.path else { throw Errno.noSuchFileOrDirectory }
            return Array(text.utf8)
        }
        func names(in directory: String) -> [String] { [] }
    }

    func load(_ text: String) throws(ConfigFileErrors) -> MQTTConfiguration {
        try MQTTConfiguration.load(from: Self.path, files: Files(text: text))
    }

    func errors(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func theSmallestTableTakesTheDefaults() throws {
        let configuration = try load("[sensor]\nkind = 'bh1750'\n[mqtt]\nbroker = 'mqtt://broker.lan'\n")
        #expect(configuration.broker == .init(host: "broker.lan", port: 1883, tls: false))
        #expect(configuration.topicPrefix == "ambience")
        #expect(configuration.discovery && !configuration.discoveryPerEntity)
        #expect(configuration.discoveryPrefix == "homeassistant")
        #expect(configuration.keepalive == 60)
        #expect(configuration.pipe == "/run/ambience/mqtt")
        #expect(configuration.controlPipe == "/run/ambience/control")
        #expect(configuration.deviceID == nil)
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try load(
            """
            control_pipe = "/run/x/control"
            [mqtt]
            broker = "mqtts://[::1]:8884"
            username = "kiosk"
            password_file = "/etc/ambience/mqtt-password"
            ca_file = "/etc/ambience/ca.pem"
            cert_file = "/etc/ambience/client.pem"
            key_file = "/etc/ambience/client.key"
            device_id = "lobby-1"
            name = "Lobby"
            topic_prefix = "site/kiosks"
            discovery = false
            discovery_prefix = "ha"
            discovery_per_entity = true
            keepalive = 15
            pipe = "/run/ambience/broker"
            """)
        #expect(configuration.broker == .init(host: "::1", port: 8884, tls: true))
        #expect(
            configuration.username == "kiosk" && configuration.passwordFile == "/etc/ambience/mqtt-password")
        #expect(
            configuration.caFile == "/etc/ambience/ca.pem"
                && configuration.keyFile == "/etc/ambience/client.key")
        #expect(configuration.deviceID == "lobby-1" && configuration.name == "Lobby")
        #expect(configuration.topicPrefix == "site/kiosks" && configuration.discoveryPrefix == "ha")
        #expect(!configuration.discovery && configuration.discoveryPerEntity && configuration.keepalive == 15)
        #expect(configuration.pipe == "/run/ambience/broker" && configuration.controlPipe == "/run/x/control")
    }

    @Test(arguments: [
        ("[mqtt]\nbroker = 'http://x'", "2: mqtt.broker: \"http://x\" must start with mqtt:// or mqtts://"),
        ("[mqtt]\nbroker = 'mqtt://x:0'", "2: mqtt.broker: \"mqtt://x:0\": the port must be from 1 to 65535"),
        ("[mqtt]\nbroker = 'mqtt://u:p@x'", "2: mqtt.broker: \"mqtt://u:p@x\" must be mqtt://HOST[:PORT]"),
        ("[mqtt]\nbroker = 'mqtt://x'\nport = 1", "3: mqtt.port: unknown key; mqtt takes broker,"),
        (
            "[mqtt]\nbroker = 'mqtt://x'\ndevice_id = 'a b'",
            "3: mqtt.device_id: \"a b\" must be letters, digits"
        ),
        (
            "[mqtt]\nbroker = 'mqtt://x'\nkeepalive = 1",
            "3: mqtt.keepalive: must be seconds from 5 to 3600, not 1"
        ),
        ("[mqtt]\nbroker = 'mqtt://x'\nca_file = '/ca.pem'", "3: mqtt.ca_file: needs an mqtts:// broker"),
        ("[mqtt]\nbroker = 'mqtt://x'\npassword = 'p'", "3: mqtt.password: a password needs a username"),
        (
            "[mqtt]\nbroker = 'mqtt://x'\ntopic_prefix = 'a/#'",
            "3: mqtt.topic_prefix: \"a/#\" must be topic levels"
        ),
        (
            "[mqtt]\nbroker = 'mqtt://x'\npipe = 'run/mqtt'",
            "3: mqtt.pipe: \"run/mqtt\" must be an absolute path"
        ),
        ("[mqtt]\nname = 'x'", "1: mqtt.broker: required"),
        ("[sensor]\nkind = 'bh1750'", "mqtt: no [mqtt] table"),
    ])
    func faultsNameTheFileLineAndKey(text: String, expected: String) {
        let found = errors(text)
        #expect(found.count == 1)
        #expect(
            found.first?.hasPrefix(Self.path + (expected.first?.isNumber == true ? ":" : ": ") + expected)
                == true)
    }
}
