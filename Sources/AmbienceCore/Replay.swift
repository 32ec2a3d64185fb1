/// `ambience replay` without the I/O: CSV rows of `seconds,lux` in, event lines out, in the
/// trace's own time. A `#` starts a comment; a first row of names is a header; `nan` or an
/// empty lux field is a failed read.
public struct Replay {
    public struct RowError: Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var text: String
        public var message: String
        public var description: String { "line \(line): \(message): \(text)" }
    }

    public let configuration: EngineConfiguration
    public let format: EventLine.Format
    private var engine: Engine?
    private var lineNumber = 0
    private var lastTime = -Double.infinity

    public init(configuration: EngineConfiguration, format: EventLine.Format) {
        self.configuration = configuration
        self.format = format
    }

    /// The event lines caused by one line of input (often none).
    public mutating func consume(_ line: String) throws(RowError) -> [String] {
        try consume(Array(line.utf8)[...])
    }

    /// The same, straight from the bytes of a line (without its newline): no String per line.
    public mutating func consume(_ line: ArraySlice<UInt8>) throws(RowError) -> [String] {
        lineNumber += 1
        var line = line
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }  // a UTF-8 BOM
        let content = line.firstIndex(of: UInt8(ascii: "#")).map { line[..<$0] } ?? line
        guard let comma = content.firstIndex(of: UInt8(ascii: ",")) else {
            if Self.trimmed(content).isEmpty { return [] }
            throw error("expected two fields, seconds,lux", in: line)
        }
        let secondsField = String(decoding: Self.trimmed(content[..<comma]), as: UTF8.self)
        let luxBytes = Self.trimmed(content[(comma + 1)...])
        guard !luxBytes.contains(UInt8(ascii: ",")) else {
            throw error("expected two fields, seconds,lux", in: line)
        }
        let luxField = String(decoding: luxBytes, as: UTF8.self)
        if engine == nil && Self.isHeader([secondsField, luxField]) { return [] }
        guard let time = Double(secondsField), time.isFinite else {
            throw error("seconds '\(secondsField)' is not a number", in: line)
        }
        guard time >= lastTime else {
            throw error("time goes backwards (previous row: \(lastTime) s)", in: line)
        }
        let lux: Double?
        if luxField.isEmpty || luxField.lowercased() == "nan" {
            lux = nil
        } else if let value = Double(luxField), value.isFinite {
            lux = value
        } else {
            throw error("lux '\(luxField)' is not a number, nan or empty", in: line)
        }
        lastTime = time
        var engine = self.engine ?? Engine(configuration: configuration, startTime: time)
        let events = engine.ingest(Sample(time: time, lux: lux))
        self.engine = engine
        if events.isEmpty { return [] }
        let rowTime = EventLine.isJSONNumber(secondsField) ? secondsField : EventLine.number(time)
        return events.compactMap { event in
            EventLine.encode(
                event, format: format, time: event.time == time ? rowTime : EventLine.number(event.time))
        }
    }

    private func error(_ message: String, in line: ArraySlice<UInt8>) -> RowError {
        RowError(line: lineNumber, text: String(decoding: line, as: UTF8.self), message: message)
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r")
        }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    /// Column names such as `seconds,lux`: words, not numbers.
    private static func isHeader(_ fields: [String]) -> Bool {
        fields.allSatisfy { !$0.isEmpty && Double($0) == nil && $0.lowercased() != "nan" }
    }
}
