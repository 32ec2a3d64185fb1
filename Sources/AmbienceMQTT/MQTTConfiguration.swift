import AmbienceClient
import AmbienceConfig

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

    static let keys = [
        "broker", "username", "password", "password_file", "ca_file", "cert_file", "key_file", "device_id",
        "name", "topic_prefix", "discovery", "discovery_prefix", "discovery_per_entity", "keepalive", "pipe",
    ]

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
        decoder.allowOnly(keys, in: section)
        var broker: Broker?
        if let (url, line, file) = decoder.string("broker", in: section) {
            switch Broker.parse(url) {
            case .success(let parsed): broker = parsed
            case .failure(let error):
                decoder.fail(section.key("broker"), error.message, file: file, line: line)
            }
        } else {
            decoder.missing(
                "broker", in: section, "required: the broker's URL, mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
            )
        }
        let username = decoder.string("username", in: section)?.value
        let password = decoder.string("password", in: section)
        let passwordFile = decoder.absolutePath("password_file", in: section)
        if let password, passwordFile != nil {
            decoder.fail(
                section.key("password"), "give password or password_file, not both", file: password.file,
                line: password.line)
        }
        if username == nil, let password {
            decoder.fail(
                section.key("password"), "a password needs a username", file: password.file,
                line: password.line)
        }
        var tlsFiles: [String: String] = [:]
        for key in ["ca_file", "cert_file", "key_file"] {
            guard let (path, line, file) = decoder.string(key, in: section) else { continue }
            guard let absolute = decoder.checkAbsolute(path, key: section.key(key), file: file, line: line)
            else { continue }
            tlsFiles[key] = absolute
            if let broker, !broker.tls {
                decoder.fail(section.key(key), "needs an mqtts:// broker", file: file, line: line)
            }
        }
        let (caFile, certFile, keyFile) = (tlsFiles["ca_file"], tlsFiles["cert_file"], tlsFiles["key_file"])
        if (certFile == nil) != (keyFile == nil) {
            decoder.missing(
                certFile == nil ? "cert_file" : "key_file", in: section,
                "a client certificate needs both cert_file and key_file")
        }
        let deviceID = decoder.string("device_id", in: section)
        if let (id, line, file) = deviceID, !isTopicWord(id) {
            decoder.fail(
                section.key("device_id"),
                "\"\(id)\" must be letters, digits, _ and - only (it is part of topics and Home Assistant ids)",
                file: file, line: line)
        }
        let name = decoder.string("name", in: section)?.value
        let topicPrefix = decoder.string("topic_prefix", in: section)
        if let (prefix, line, file) = topicPrefix, !isTopicPath(prefix) {
            decoder.fail(
                section.key("topic_prefix"),
                "\"\(prefix)\" must be topic levels without +, #, or empty levels",
                file: file, line: line)
        }
        let discoveryPrefix = decoder.string("discovery_prefix", in: section)
        if let (prefix, line, file) = discoveryPrefix, !isTopicPath(prefix) {
            decoder.fail(
                section.key("discovery_prefix"),
                "\"\(prefix)\" must be topic levels without +, #, or empty levels", file: file, line: line)
        }
        let discovery = decoder.boolean("discovery", in: section) ?? true
        let perEntity = decoder.boolean("discovery_per_entity", in: section) ?? false
        let keepalive =
            decoder.integer("keepalive", in: section, range: 5...3600, meaning: "seconds") ?? defaultKeepalive
        let pipe = decoder.absolutePath("pipe", in: section) ?? defaultPipe
        guard let broker else { return nil }
        return MQTTConfiguration(
            broker: broker, username: username, password: password?.value, passwordFile: passwordFile,
            caFile: caFile, certFile: certFile, keyFile: keyFile, deviceID: deviceID?.value, name: name,
            topicPrefix: topicPrefix?.value ?? defaultTopicPrefix, discovery: discovery,
            discoveryPrefix: discoveryPrefix?.value ?? defaultDiscoveryPrefix, discoveryPerEntity: perEntity,
            keepalive: keepalive, pipe: pipe, controlPipe: controlPipe)
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
