/// Reads a light trace, CSV rows of `seconds,lux`, one line at a time: a `#` starts a comment,
/// blank lines are skipped, a first row of names is a header (after a UTF-8 BOM, as spreadsheets
/// write), `nan` or an empty lux field is a failed read, and time never goes backwards.
/// Shared by `replay` and `simulate`'s `csv:` profile, so both read the same files the same way.
public struct TraceReader: Sendable {
    public struct Row: Equatable, Sendable {
        public var time: Double
        /// The seconds as written, for echoing them back.
        public var timeText: String
        /// nil for a failed read.
        public var lux: Double?
    }

    public struct RowError: Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var text: String
        public var message: String
        public var description: String { "line \(line): \(message): \(text)" }
    }

    private var lineNumber = 0
    private var lastTime = -Double.infinity
    private var sawData = false

    public init() {}

    /// The row on this line, or nil for a comment, a blank line or the header.
    public mutating func row(_ line: ArraySlice<UInt8>) throws(RowError) -> Row? {
        lineNumber += 1
        var line = line
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        let content = line.firstIndex(of: UInt8(ascii: "#")).map { line[..<$0] } ?? line
        guard let comma = content.firstIndex(of: UInt8(ascii: ",")) else {
            if Self.trimmed(content).isEmpty { return nil }
            throw error("expected two fields, seconds,lux", in: line)
        }
        let secondsField = String(decoding: Self.trimmed(content[..<comma]), as: UTF8.self)
        let luxBytes = Self.trimmed(content[(comma + 1)...])
        guard !luxBytes.contains(UInt8(ascii: ",")) else {
            throw error("expected two fields, seconds,lux", in: line)
        }
        let luxField = String(decoding: luxBytes, as: UTF8.self)
        if !sawData && Self.isHeader([secondsField, luxField]) { return nil }
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
        sawData = true
        return Row(time: time, timeText: secondsField, lux: lux)
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
