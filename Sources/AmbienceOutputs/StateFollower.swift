import AmbienceCore

/// The reading side of the named pipe, for `ambience watch`: whole lines out of whatever
/// read(2) returned (JSON or plain), and the state to act on. Coalesced: of a batch of lines
/// read together, only the newest state counts, so a consumer that fell behind (a slow
/// script) catches up in one step instead of replaying every state it missed.
public struct StateFollower: Sendable {
    public struct Update: Equatable, Sendable {
        public var state: AmbienceState
        /// The state acted on before, nil the first time.
        public var previous: AmbienceState?
        /// The raw lux of the newest line, as written there; nil in `plain` or when unknown.
        public var lux: String?
    }

    /// The state last returned.
    public private(set) var acted: AmbienceState?
    private var partial: [UInt8] = []

    public init() {}

    /// Takes the bytes of one read; returns the newest state among the whole lines in them
    /// if it differs from the state last acted on.
    public mutating func consume<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Update? {
        var newest: (state: AmbienceState, lux: String?)?
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                partial.append(byte)
                continue
            }
            if let decoded = Self.decode(String(decoding: partial, as: UTF8.self)) { newest = decoded }
            partial.removeAll(keepingCapacity: true)
        }
        guard let newest, newest.state != acted else { return nil }
        defer { acted = newest.state }
        return Update(state: newest.state, previous: acted, lux: newest.lux)
    }

    /// The writer went away: a partial line will never be finished.
    public mutating func disconnected() {
        partial.removeAll()
    }

    /// The state and lux of a `change` or `current` line, in either format; nil for other
    /// events and for anything that is not an event line.
    public static func decode(_ line: String) -> (state: AmbienceState, lux: String?)? {
        let text = line.trimmingWhitespace
        guard text.hasPrefix("{") else { return AmbienceState(rawValue: text).map { ($0, nil) } }
        guard let event = value(of: "event", in: text), event == "\"change\"" || event == "\"current\"",
            let quotedState = value(of: "state", in: text),
            let state = AmbienceState(rawValue: String(quotedState.dropFirst().dropLast()))
        else { return nil }
        let lux = value(of: "lux", in: text).flatMap { EventLine.isJSONNumber($0) ? $0 : nil }
        return (state, lux)
    }

    /// The raw JSON value of a top-level key in an event line, whose values are never objects,
    /// arrays or strings with commas.
    private static func value(of key: String, in line: String) -> String? {
        guard let start = line.range(of: "\"\(key)\":")?.upperBound else { return nil }
        let rest = line[start...]
        let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
        return String(rest[..<end])
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(self[first...last])
    }

    fileprivate func range(of needle: String) -> Range<String.Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(needle) {
                return index..<self.index(index, offsetBy: needle.count)
            }
            index = self.index(after: index)
        }
        return nil
    }
}
