import AmbienceConfig
import AmbienceSystem
import TOML

/// Where `ambience serve` listens: an IPv4 or IPv6 address and a port.
public struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    public enum Family: Equatable, Sendable {
        case ipv4([UInt8])
        case ipv6([UInt8])
    }

    public var family: Family
    public var port: UInt16

    /// Port 8470 on 127.0.0.1: loopback, so that only programs on this machine see the state.
    public static let `default` = ListenAddress(family: .ipv4([127, 0, 0, 1]), port: 8470)

    public init(family: Family, port: UInt16) {
        self.family = family
        self.port = port
    }

    /// `127.0.0.1:8470`, `[::1]:8470`, `localhost:8470` (127.0.0.1); port 0 lets the kernel choose.
    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]),
            text[text.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        let host = text[..<colon]
        if host == "localhost" {
            family = .ipv4([127, 0, 0, 1])
        } else if host.hasPrefix("["), host.hasSuffix("]"),
            let bytes = Self.ipv6(host.dropFirst().dropLast())
        {
            family = .ipv6(bytes)
        } else if let bytes = Self.ipv4(host) {
            family = .ipv4(bytes)
        } else {
            return nil
        }
        self.port = port
    }

    /// 127.0.0.0/8 or ::1 (or ::ffff:127.x.y.z).
    public var isLoopback: Bool {
        switch family {
        case .ipv4(let bytes): bytes[0] == 127
        case .ipv6(let bytes):
            bytes == Array(repeating: 0, count: 15) + [1]
                || (bytes[..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
                    && bytes[12] == 127)
        }
    }

    public var description: String {
        switch family {
        case .ipv4(let bytes): bytes.map(String.init).joined(separator: ".") + ":\(port)"
        case .ipv6(let bytes): "[" + Self.text(ofIPv6: bytes) + "]:\(port)"
        }
    }

    /// RFC 5952's form: lowercase hexadecimal, the longest run of two or more zero groups as `::`.
    private static func text(ofIPv6 bytes: [UInt8]) -> String {
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        var best: Range<Int>?
        var start: Int?
        for index in 0...groups.count {
            if index < groups.count, groups[index] == 0 {
                if start == nil { start = index }
            } else if let first = start {
                if index - first >= 2, index - first > (best?.count ?? 0) { best = first..<index }
                start = nil
            }
        }
        let hex: (ArraySlice<UInt16>) -> String = { $0.map { String($0, radix: 16) }.joined(separator: ":") }
        guard let best else { return hex(groups[...]) }
        return hex(groups[..<best.lowerBound]) + "::" + hex(groups[best.upperBound...])
    }

    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let bytes = parts.compactMap { part -> UInt8? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return nil
            }
            return UInt8(part)
        }
        return bytes.count == 4 ? bytes : nil
    }

    /// The textual forms of RFC 4291 §2.2 but the embedded IPv4 one.
    private static func ipv6(_ text: Substring) -> [UInt8]? {
        let halves =
            firstRange(of: "::", in: text).map { [text[..<$0.lowerBound], text[$0.upperBound...]] } ?? [text]
        guard halves.count <= 2, !text.isEmpty else { return nil }
        func groups(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            var values: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                values.append(value)
            }
            return values
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else {
            return nil
        }
        let count = head.count + tail.count
        guard halves.count == 2 ? count <= 7 : count == 8 else { return nil }
        let values = head + Array(repeating: 0, count: 8 - count) + tail
        return values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}

/// The `[serve]` table of the configuration file, for `ambience serve`, read with the one
/// decoder so its faults read `FILE:LINE: serve.KEY: message` like the daemon's; `ambience check`
/// checks it with the rest of the file.
public struct ServeConfiguration: Equatable, Sendable {
    public static let defaultPipe = "/run/ambience/serve"

    public var listen: ListenAddress = .default
    /// The `Access-Control-Allow-Origin` of every answer: `*` (any page) by default, since the
    /// data is read-only; one origin (`https://dash.example`) to keep other pages out.
    public var allowedOrigin = "*"
    public var pipe = defaultPipe
    /// An address other than loopback is refused unless this is set: the state of a room is
    /// nobody else's business, and the unit's IPAddressAllow=localhost would block it anyway.
    public var allowRemote = false

    public init() {}

    /// Decodes the `[serve]` table of a configuration file's text; a missing table is the defaults.
    public static func decode(_ bytes: [UInt8], file: String) throws(ConfigFileErrors) -> ServeConfiguration {
        try ConfigurationSource.decodeTable(bytes, file: file) { root, decoder in
            decode(root, decoder: &decoder)
        }
    }

    /// For `ambience check`.
    public static let table = ProgramTable(name: "serve", checkedWhenAbsent: true) { root, decoder in
        _ = decode(root, decoder: &decoder)
    }

    /// The table out of the file's top level, its faults into `decoder`: `serve` reads it this
    /// way, and `ambience check` with the rest of the file.
    public static func decode(_ root: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder)
        -> ServeConfiguration
    {
        var configuration = ServeConfiguration()
        keys.decode(decoder.section("serve", of: root), into: &configuration, decoder: &decoder)
        return configuration
    }

    /// The keys of `[serve]`.
    static let keys = ConfigurationTable<ServeConfiguration>([
        .value(
            "listen",
            read: { name, section, decoder in
                decoder.parsedString(name, in: section, ListenAddress.init(parsing:)) { text in
                    "\"\(text)\" is not ADDRESS:PORT (127.0.0.1:8470, [::1]:8470, localhost:8470)"
                }
            },
            write: { TOMLWriter.string($0.description) }, get: { $0.listen }, set: { $0.listen = $1 }),
        .value(
            "allowed_origin",
            read: { name, section, decoder in
                decoder.parsedString(name, in: section, { isOrigin($0) ? $0 : nil }) { text in
                    "\"\(text)\" is not \"*\" or an origin such as \"https://dash.example:8123\""
                }
            },
            write: { TOMLWriter.string($0) }, get: { $0.allowedOrigin }, set: { $0.allowedOrigin = $1 }),
        .absolutePath("pipe", get: { $0.pipe }, set: { $0.pipe = $1 }),
        .boolean("allow_remote", get: { $0.allowRemote }, set: { $0.allowRemote = $1 })
            .then { configuration, section, decoder in
                // Once both are read: an address other than loopback needs allow_remote.
                guard !configuration.listen.isLoopback, !configuration.allowRemote,
                    let (value, file) = decoder.value("listen", in: section), let text = value.string
                else { return }
                decoder.fail(
                    section.key("listen"),
                    "\"\(text)\" is not a loopback address; set allow_remote = true to listen there",
                    file: file, line: value.position.line)
                configuration.listen = .default
            },
    ])

    /// Reads the file; a missing file at the default path is the defaults.
    public static func load(
        from path: String, required: Bool, files: some ConfigurationFiles = SystemConfigurationFiles()
    ) throws(ConfigFileErrors) -> ServeConfiguration {
        let bytes: [UInt8]
        do {
            bytes = try files.contents(of: path)
        } catch  where error == .noSuchFileOrDirectory && !required {
            return ServeConfiguration()
        } catch {
            throw ConfigFileErrors([ConfigFileError(file: path, message: "cannot read the file: \(error)")])
        }
        return try decode(bytes, file: path)
    }

    /// `*`, or scheme://host[:port] with nothing a header value could be broken by.
    public static func isOrigin(_ text: String) -> Bool {
        if text == "*" { return true }
        guard let separator = firstRange(of: "://", in: text[...]) else { return false }
        let scheme = text[..<separator.lowerBound]
        let rest = text[separator.upperBound...]
        return !scheme.isEmpty
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            && !rest.isEmpty && !rest.hasSuffix("/")
            && rest.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }
    }
}

/// Where `part` first occurs in `text`. The standard library's search for a string is in the
/// regular-expression module, which Embedded Swift does not have.
private func firstRange(of part: String, in text: Substring) -> Range<Substring.Index>? {
    var start = text.startIndex
    while start < text.endIndex {
        if text[start...].hasPrefix(part) { return start..<text.index(start, offsetBy: part.count) }
        start = text.index(after: start)
    }
    return nil
}
