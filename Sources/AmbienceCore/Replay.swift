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
        lineNumber += 1
        let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let fields = content.split(separator: ",", omittingEmptySubsequences: false).map(Self.trimmed)
        if fields.count == 1 && fields[0].isEmpty { return [] }
        guard fields.count == 2 else {
            throw RowError(line: lineNumber, text: line, message: "expected two fields, seconds,lux")
        }
        if engine == nil && Self.isHeader(fields) { return [] }
        guard let time = Double(fields[0]), time.isFinite else {
            throw RowError(line: lineNumber, text: line, message: "seconds '\(fields[0])' is not a number")
        }
        guard time >= lastTime else {
            throw RowError(
                line: lineNumber, text: line, message: "time goes backwards (previous row: \(lastTime) s)")
        }
        let lux: Double?
        if fields[1].isEmpty || fields[1].lowercased() == "nan" {
            lux = nil
        } else if let value = Double(fields[1]), value.isFinite {
            lux = value
        } else {
            throw RowError(
                line: lineNumber, text: line, message: "lux '\(fields[1])' is not a number, nan or empty")
        }
        lastTime = time
        var engine = self.engine ?? Engine(configuration: configuration, startTime: time)
        let events = engine.ingest(Sample(time: time, lux: lux))
        self.engine = engine
        let rowTime = EventLine.isJSONNumber(fields[0]) ? String(fields[0]) : EventLine.number(time)
        return events.compactMap { event in
            EventLine.encode(
                event, format: format, time: event.time == time ? rowTime : EventLine.number(event.time))
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }

    /// Column names such as `seconds,lux`: words, not numbers.
    private static func isHeader(_ fields: [Substring]) -> Bool {
        fields.allSatisfy { field in
            Double(field) == nil && field.first.map { $0.isLetter } == true
                && field.lowercased() != "nan"
                && field.allSatisfy {
                    $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " || $0 == "(" || $0 == ")"
                }
        }
    }
}
