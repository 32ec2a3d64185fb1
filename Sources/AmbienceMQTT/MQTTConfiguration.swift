import AmbienceClient
import AmbienceConfig
import AmbienceCore
import TOML

/// The `[mqtt]` table of the daemon's file, for `ambience mqtt`: the daemon only accepts the
/// table; the bridge reads it here, with the same FILE:LINE: KEY errors as the rest of the file.
public struct MQTTConfiguration: Equatable, Sendable {
    public static let defaultPipe = "/run/ambience/mqtt"
    public static let defaultTopicPrefix = "ambience"
    public static let defaultDiscoveryPrefix = "homeassistant"
    public static let defaultKeepalive = 60

    public struct Broker: Equatable, Sendable {
        public var host: String
        public var port: Int
        /// `mqtts://`: TLS, the broker's certificate checked against `caFile` or the system's CAs.
        public var tls: Bool

        public init(host: String, port: Int, tls: Bool) {
            self.host = host
            self.port = port
            self.tls = tls
        }

        /// As the file writes it: `mqtts://broker.lan:8883`.
        public var url: String {
            (tls ? "mqtts://" : "mqtt://") + (host.contains(":") ? "[" + host + "]" : host) + ":\(port)"
        }

        /// `mqtt://HOST[:PORT]` (1883) or `mqtts://HOST[:PORT]` (8883); an IPv6 address in brackets.
        public static func parse(_ url: String) -> Result<Broker, URLError> {
            let tls: Bool
            let rest: Substring
            if url.hasPrefix("mqtt://") {
                tls = false
                rest = url.dropFirst("mqtt://".count)
            } else if url.hasPrefix("mqtts://") {
                tls = true
                rest = url.dropFirst("mqtts://".count)
            } else {
                return .failure(URLError(message: "\"\(url)\" must start with mqtt:// or mqtts://"))
            }
            let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
            guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else {
                return .failure(
                    URLError(
                        message: "\"\(url)\" must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
                            + " (credentials go in username and password)"))
            }
            var host = authority
            var portText: Substring?
            if authority.hasPrefix("[") {
                guard let close = authority.firstIndex(of: "]") else {
                    return .failure(URLError(message: "\"\(url)\": an IPv6 address needs its closing ]"))
                }
                host = authority[authority.index(after: authority.startIndex)..<close]
                let after = authority[authority.index(after: close)...]
                if after.hasPrefix(":") {
                    portText = after.dropFirst()
                } else if !after.isEmpty {
                    return .failure(URLError(message: "\"\(url)\": expected :PORT after the address"))
                }
            } else if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            }
            guard !host.isEmpty else { return .failure(URLError(message: "\"\(url)\" names no host")) }
            var port = tls ? 8883 : 1883
            if let portText {
                guard let number = Int(portText), (1...65535).contains(number) else {
                    return .failure(URLError(message: "\"\(url)\": the port must be from 1 to 65535"))
                }
                port = number
            }
            return .success(Broker(host: String(host), port: port, tls: tls))
        }
    }

    public struct URLError: Error, Equatable, Sendable {
        public var message: String
    }

    public var broker: Broker
    public var username: String?
    /// The password itself, or (`passwordFile`) a file holding it on its first line.
    public var password: String?
    public var passwordFile: String?
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    /// Nil: derived from /etc/machine-id by the bridge.
    public var deviceID: String?
    /// What Home Assistant calls the kiosk; nil: "Ambience " and the device id.
    public var name: String?
    public var topicPrefix: String
    public var discovery: Bool
    public var discoveryPrefix: String
    /// One discovery topic per entity, for Home Assistant before 2024.11.
    public var discoveryPerEntity: Bool
    public var keepalive: Int
    /// The daemon's FIFO the bridge follows (it must be in `[pipes] paths`).
    public var pipe: String
    /// The daemon's control pipe (the top-level `control_pipe`), for overrides.
    public var controlPipe: String

    public init(
        broker: Broker, username: String? = nil, password: String? = nil, passwordFile: String? = nil,
        caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil, deviceID: String? = nil,
        name: String? = nil, topicPrefix: String = MQTTConfiguration.defaultTopicPrefix,
        discovery: Bool = true,
        discoveryPrefix: String = MQTTConfiguration.defaultDiscoveryPrefix, discoveryPerEntity: Bool = false,
        keepalive: Int = MQTTConfiguration.defaultKeepalive, pipe: String = MQTTConfiguration.defaultPipe,
        controlPipe: String = RuntimePaths.controlPipe
    ) {
        self.broker = broker
        self.username = username
        self.password = password
        self.passwordFile = passwordFile
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.deviceID = deviceID
        self.name = name
        self.topicPrefix = topicPrefix
        self.discovery = discovery
        self.discoveryPrefix = discoveryPrefix
        self.discoveryPerEntity = discoveryPerEntity
        self.keepalive = keepalive
        self.pipe = pipe
        self.controlPipe = controlPipe
    }

    /// Reads the `[mqtt]` table and the top-level `control_pipe` of the file at `path`; the rest
    /// of the file is the daemon's (`ambience check` validates it).
    public static func load(
        from path: String, files: some ConfigurationFiles = SystemConfigurationFiles()
    ) throws(ConfigFileErrors) -> MQTTConfiguration {
        try ConfigurationSource.decodeTable(ofFileAt: path, files: files) { root, decoder in
            decode(root, decoder: &decoder)
        }
    }

    /// For `ambience check`: without the table the bridge is not used.
    public static let table = ProgramTable(name: "mqtt", checkedWhenAbsent: false) { root, decoder in
        _ = decode(root, decoder: &decoder)
    }

    /// The table out of the file's top level, its faults into `decoder`: `mqtt` reads it this
    /// way, and `ambience check` with the rest of the file.
    public static func decode(_ root: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder)
        -> MQTTConfiguration?
    {
        let controlPipe = decoder.absolutePath("control_pipe", in: root) ?? RuntimePaths.controlPipe
        let section = decoder.section("mqtt", of: root)
        guard !section.layers.isEmpty else {
            decoder.fail(
                "mqtt", "no [mqtt] table: it needs at least broker = \"mqtt://HOST\"", file: decoder.mainFile,
                line: nil)
            return nil
        }
        var configuration = MQTTConfiguration(broker: unread, controlPipe: controlPipe)
        keys.decode(section, into: &configuration, decoder: &decoder)
        guard configuration.broker != unread else { return nil }
        return configuration
    }

    /// The broker until `broker` is read: required, it never has an empty host once read.
    private static let unread = Broker(host: "", port: 0, tls: false)

    /// The keys of `[mqtt]`.
    static let keys = ConfigurationTable<MQTTConfiguration>([
        .value(
            "broker",
            read: { name, section, decoder in
                guard let (url, line, file) = decoder.string(name, in: section) else {
                    decoder.missing(
                        name, in: section,
                        "required: the broker's URL, mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
                    return nil
                }
                switch Broker.parse(url) {
                case .success(let broker): return broker
                case .failure(let error):
                    decoder.fail(section.key(name), error.message, file: file, line: line)
                    return nil
                }
            },
            write: { TOMLWriter.string($0.url) }, get: { $0.broker }, set: { $0.broker = $1 }),
        .string("username", get: { $0.username }, set: { $0.username = $1 }),
        .string("password", get: { $0.password }, set: { $0.password = $1 }),
        .absolutePath("password_file", get: { $0.passwordFile }, set: { $0.passwordFile = $1 })
            .then { configuration, section, decoder in
                guard configuration.password != nil else { return }
                let key = section.key("password")
                if configuration.passwordFile != nil {
                    decoder.adopt(
                        ConfigurationError(key: key, message: "give password or password_file, not both"))
                }
                if configuration.username == nil {
                    decoder.adopt(ConfigurationError(key: key, message: "a password needs a username"))
                }
            },
        tlsFile("ca_file", get: { $0.caFile }, set: { $0.caFile = $1 }),
        tlsFile("cert_file", get: { $0.certFile }, set: { $0.certFile = $1 }),
        tlsFile("key_file", get: { $0.keyFile }, set: { $0.keyFile = $1 })
            .then { configuration, section, decoder in
                if (configuration.certFile == nil) != (configuration.keyFile == nil) {
                    decoder.missing(
                        configuration.certFile == nil ? "cert_file" : "key_file", in: section,
                        "a client certificate needs both cert_file and key_file")
                }
            },
        checkedString(
            "device_id", isValid: { isTopicWord($0) },
            "must be letters, digits, _ and - only (it is part of topics and Home Assistant ids)",
            get: { $0.deviceID }, set: { $0.deviceID = $1 }),
        .string("name", get: { $0.name }, set: { $0.name = $1 }),
        checkedString(
            "topic_prefix", isValid: { isTopicPath($0) },
            "must be topic levels without +, #, or empty levels",
            get: { $0.topicPrefix }, set: { $0.topicPrefix = $1 }),
        .boolean("discovery", get: { $0.discovery }, set: { $0.discovery = $1 }),
        checkedString(
            "discovery_prefix", isValid: { isTopicPath($0) },
            "must be topic levels without +, #, or empty levels",
            get: { $0.discoveryPrefix }, set: { $0.discoveryPrefix = $1 }),
        .boolean("discovery_per_entity", get: { $0.discoveryPerEntity }, set: { $0.discoveryPerEntity = $1 }),
        .integer(
            "keepalive", range: 5...3600, meaning: "seconds", get: { $0.keepalive },
            set: { $0.keepalive = $1 }),
        .absolutePath("pipe", get: { $0.pipe }, set: { $0.pipe = $1 }),
    ])

    /// A file of the TLS connection: an absolute path, and only with an mqtts:// broker.
    private static func tlsFile(
        _ name: String, get: @escaping @Sendable (MQTTConfiguration) -> String?,
        set: @escaping @Sendable (inout MQTTConfiguration, String) -> Void
    ) -> ConfigurationKey<MQTTConfiguration> {
        ConfigurationKey.absolutePath(name, get: get, set: set).then { configuration, section, decoder in
            if get(configuration) != nil, configuration.broker != unread, !configuration.broker.tls {
                decoder.adopt(ConfigurationError(key: section.key(name), message: "needs an mqtts:// broker"))
            }
        }
    }

    /// A string `isValid` takes; else refused with `"TEXT" MESSAGE`.
    private static func checkedString(
        _ name: String, isValid: @escaping @Sendable (String) -> Bool, _ message: String,
        get: @escaping @Sendable (MQTTConfiguration) -> String?,
        set: @escaping @Sendable (inout MQTTConfiguration, String) -> Void
    ) -> ConfigurationKey<MQTTConfiguration> {
        .value(
            name,
            read: { name, section, decoder in
                decoder.parsedString(name, in: section, { isValid($0) ? $0 : nil }) { "\"\($0)\" " + message }
            },
            write: { TOMLWriter.string($0) }, get: get, set: set)
    }

    /// [a-zA-Z0-9_-]+: what Home Assistant allows in discovery topic ids.
    public static func isTopicWord<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    static func isTopicPath(_ text: String) -> Bool {
        let levels = text.split(separator: "/", omittingEmptySubsequences: false)
        return levels.allSatisfy { !$0.isEmpty && !$0.contains("+") && !$0.contains("#") }
    }
}
