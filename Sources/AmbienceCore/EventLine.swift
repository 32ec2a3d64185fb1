import JSON

/// The pipe protocol's line encodings (docs/guarantees.md §5.1). Each line ends in "\n" and stays
/// far below PIPE_BUF, so one write(2) never tears it.
public enum EventLine {
    public enum Format: String, Sendable, CaseIterable {
        case json, plain
    }

    /// The line for `event`, or nil when the format has nothing to say about it (`plain` writes
    /// only state words, so faults and recoveries, which do not change the state, are skipped).
    /// `time` is the JSON value for the "time" key, already rendered (a quoted timestamp or a number).
    /// `now` is the monotonic time the line is written at, for the override's remaining seconds
    /// (a `current` line repeats an older event); nil means the event's own time.
    public static func encode(_ event: Event, format: Format, time: String, now: Double? = nil) -> String? {
        switch format {
        case .plain:
            guard event.kind == .change || event.kind == .current, let state = event.state else { return nil }
            return state.rawValue + "\n"
        case .json:
            return json(event, time: time, now: now ?? event.time)
        }
    }

    /// The keys after `time` came later (override, fault, brightness, display, display_asked,
    /// then cct and whitepoint); they sit last so that readers written for the first eight keys
    /// read on unchanged. `display` is there only when a `[display]` is configured,
    /// `display_asked` only when that display is a Wayland session's, and `cct` and `whitepoint`
    /// only with a `[whitepoint]`, so the lines of other daemons are as before.
    static func json(_ event: Event, time: String, now: Double) -> String {
        var line = "{\"event\":\"\(event.kind.rawValue)\""
        line += ",\"state\":" + quoted(event.state?.rawValue)
        line += ",\"previous\":" + quoted(event.previous?.rawValue)
        line += ",\"animated\":\(event.animated)"
        line += ",\"reason\":" + quoted(event.reason?.rawValue)
        line += ",\"lux\":" + number(event.lux)
        line += ",\"filtered\":" + number(event.filtered)
        line += ",\"time\":" + time
        line += ",\"override\":" + quoted(event.override?.rawValue)
        line += ",\"override_remaining_s\":" + number(event.overrideRemaining(at: now))
        line += ",\"fault\":\(event.faulted)"
        line += ",\"brightness\":" + (event.brightness.map { String($0) } ?? "null")
        if let display = event.display { line += ",\"display\":\"" + display.rawValue + "\"" }
        if let asked = event.displayAsked { line += ",\"display_asked\":\"" + asked.rawValue + "\"" }
        if let white = event.whitePoint {
            line += ",\"cct\":" + (white.room.map { String($0) } ?? "null")
            line += ",\"whitepoint\":" + (white.display.map { String($0) } ?? "null")
        }
        line += "}\n"
        return line
    }

    private static func quoted(_ word: String?) -> String {
        word.map { "\"\($0)\"" } ?? "null"
    }

    /// A JSON number with the shortest digits that read back as the same Double, so consumers
    /// see exactly what the engine saw; JSON has no NaN or infinity, so those become null.
    public static func number(_ value: Double?) -> String {
        JSONValue.number(value)
    }

    /// True when `text` is a JSON number literal, so it can be echoed as given.
    public static func isJSONNumber<S: StringProtocol>(_ text: S) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

// MARK: Reading lines back

extension EventLine {
    /// An event line read back: what `encode` wrote, for the pipe's readers (`watch`, the kiosk,
    /// `serve`, `mqtt`). Keys a line leaves out (a daemon older than them) read as nil, as do
    /// `null` values; only `event` is required.
    public struct Decoded: Equatable, Sendable {
        /// `plain` for a line that is a state word alone (read as a `change` to that state).
        public var format: Format
        /// The `event` key: one lowercase word. Readers pass on or skip events they do not know;
        /// `kind` is nil for those.
        public var event: String
        public var state: AmbienceState?
        public var previous: AmbienceState?
        public var animated: Bool?
        public var reason: Event.Reason?
        public var lux: Double?
        public var filtered: Double?
        /// The `time` value as JSON text, as `encode` takes it: a quoted timestamp or a number.
        public var time: String?
        /// `override` and `override_remaining_s`; nil when the line has neither key.
        public var override: Override?
        public var fault: Bool?
        /// The backlight's percent; nil when there is none, or the line is from before the key.
        public var brightness: Int?
        /// The display awake or asleep; nil when no `[display]` is configured, or the line is
        /// from before the key.
        public var display: DisplayPower?
        /// What the daemon asks of a Wayland session's outputs; nil for other displays.
        public var displayAsked: DisplayPower?
        /// The room's colour temperature (`cct`) and the display's white (`whitepoint`), whole
        /// kelvin; nil without a `[whitepoint]`, or from before the keys.
        public var cct: Int?
        public var whitePoint: Int?
        /// Whether the line has the white point's keys: a daemon with `[whitepoint]`, whose
        /// values may still be null.
        public var hasWhitePoint = false
        /// The line without the white space around it: what a reader passes on as it came.
        public var text: String

        public var kind: Event.Kind? { Event.Kind(rawValue: event) }

        public init(format: Format, event: String, text: String) {
            self.format = format
            self.event = event
            self.text = text
        }
    }

    public struct Override: Equatable, Sendable {
        /// The state the override holds; nil when the light decides.
        public var state: AmbienceState?
        /// Seconds left when the line was written; nil when it holds until `auto`, or none holds.
        public var remaining: Double?

        public init(state: AmbienceState?, remaining: Double?) {
            self.state = state
            self.remaining = remaining
        }
    }

    /// Why a line is not an event line.
    public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
        public var reason: String

        public init(_ reason: String) { self.reason = reason }

        public var description: String { reason }
    }

    /// The longest `event` word read: names are short, and a reader may pass them on as they are
    /// (an SSE event name).
    public static let maximumEventLength = 31

    /// Reads one line (without its "\n", as `LineFramer` gives it) in either format.
    public static func decode(_ line: some Collection<UInt8>) throws(DecodeError) -> Decoded {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        var bytes = Array(line)[...]
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        while let first = bytes.first, isSpace(first) { bytes.removeFirst() }
        guard !bytes.isEmpty else { throw DecodeError("an empty line") }
        // Event lines hold none: one would end an SSE or log line where a reader passes it on.
        if bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw DecodeError("a control character in the line")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.first == UInt8(ascii: "{") else {
            guard let state = AmbienceState(rawValue: text) else {
                throw DecodeError("neither a JSON object nor a state word")
            }
            var decoded = Decoded(format: .plain, event: Event.Kind.change.rawValue, text: text)
            decoded.state = state
            return decoded
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw DecodeError(error.description)
        }
        guard case .object = value else { throw DecodeError("not a JSON object") }
        guard let event = value["event"] else { throw DecodeError("no \"event\" key") }
        guard let name = event.stringValue, !name.isEmpty, name.utf8.count <= maximumEventLength,
            name.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
        else {
            throw DecodeError("\"event\" is not a lowercase word of at most \(maximumEventLength) letters")
        }
        var decoded = Decoded(format: .json, event: name, text: text)
        decoded.state = try word("state", in: value, AmbienceState.init(rawValue:))
        decoded.previous = try word("previous", in: value, AmbienceState.init(rawValue:))
        decoded.reason = try word("reason", in: value, Event.Reason.init(rawValue:))
        decoded.animated = try flag("animated", in: value)
        decoded.lux = try number("lux", in: value)
        decoded.filtered = try number("filtered", in: value)
        switch value["time"] {
        case nil, .null?: break
        case .string?, .number?: decoded.time = value["time"]?.text
        default: throw DecodeError("\"time\" is neither a string nor a number")
        }
        if value["override"] != nil || value["override_remaining_s"] != nil {
            decoded.override = Override(
                state: try word("override", in: value, AmbienceState.init(rawValue:)),
                remaining: try number("override_remaining_s", in: value))
        }
        decoded.fault = try flag("fault", in: value)
        if let percent = try number("brightness", in: value) {
            guard percent >= 0, percent <= 100, percent == percent.rounded() else {
                throw DecodeError("\"brightness\" is not a whole percent 0 to 100")
            }
            decoded.brightness = Int(percent)
        }
        decoded.display = try word("display", in: value, DisplayPower.init(rawValue:))
        decoded.displayAsked = try word("display_asked", in: value, DisplayPower.init(rawValue:))
        decoded.cct = try kelvin("cct", in: value)
        decoded.whitePoint = try kelvin("whitepoint", in: value)
        decoded.hasWhitePoint = value["whitepoint"] != nil
        return decoded
    }

    public static func decode(_ line: String) throws(DecodeError) -> Decoded {
        try decode(line.utf8)
    }

    private static func word<Word>(
        _ key: String, in object: JSONValue, _ make: (String) -> Word?
    ) throws(DecodeError) -> Word? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let word = make(text) else {
                throw DecodeError("\"\(key)\": '\(text)' is not one of its words")
            }
            return word
        default: throw DecodeError("\"\(key)\" is not a string")
        }
    }

    /// A whole number of kelvin from 1000 to 15,000, the white point engine's range.
    private static func kelvin(_ key: String, in object: JSONValue) throws(DecodeError) -> Int? {
        guard let value = try number(key, in: object) else { return nil }
        guard value >= 1000, value <= 15_000, value == value.rounded() else {
            throw DecodeError("\"\(key)\" is not a whole kelvin 1000 to 15000")
        }
        return Int(value)
    }

    private static func number(_ key: String, in object: JSONValue) throws(DecodeError) -> Double? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        default: throw DecodeError("\"\(key)\" is not a number")
        }
    }

    private static func flag(_ key: String, in object: JSONValue) throws(DecodeError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw DecodeError("\"\(key)\" is not true or false")
        }
    }
}
