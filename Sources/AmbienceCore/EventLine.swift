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

    /// The keys after `time` came later (override and fault); they sit last so that readers
    /// written for the first eight keys read on unchanged.
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
        line += ",\"fault\":\(event.faulted)}\n"
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
