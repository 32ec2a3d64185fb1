import AmbienceCore

/// Reads a light trace, CSV rows of `seconds,lux`, one line at a time: a `#` starts a comment,
/// blank lines are skipped, a first row of names is a header (after a UTF-8 BOM, as spreadsheets
/// write), `nan` or an empty lux field is a failed read, and time never goes backwards.
/// A header may name more columns than the two; every row then has that many fields, and
/// the columns past the second are ignored, except that a record's header
/// (`LightRecord.header`, or an older record's without `brightness`) makes its columns read back
/// as `Row.recorded`.
/// A file whose first line is `CompactRecord.header` is the persistent record's compact format
/// instead, read back to the same rows (and `Row.recorded`) as the CSV of those rows.
/// Shared by `replay`, `plot` and `simulate`'s `csv:` profile, so all read the same files the
/// same way.
public struct TraceReader: Sendable {
    public struct Row: Equatable, Sendable {
        public var time: Double
        /// The seconds as written, for echoing them back; empty in a compact record, whose times
        /// are not written as text (`EventLine.number(time)` is their text).
        public var timeText: String
        /// nil for a failed read.
        public var lux: Double?
        /// What a record (`ambience record`) says the daemon did after this sample.
        public var recorded: Recorded?
        /// The first row of a daemon's run in a compact record (after its `!` line): the daemon
        /// started afresh here, with a new engine, and after a reboot its times start again.
        public var startsRun = false
    }

    /// A record's columns past the lux: see `LightRecord.Row`.
    public struct Recorded: Equatable, Sendable {
        public var filtered: Double?
        public var state: AmbienceState?
        public var isFaulted: Bool
        public var override: AmbienceState?
        /// The backlight's percent; nil without a backlight, or in an older record.
        public var brightness: Int?

        public init(
            filtered: Double?, state: AmbienceState?, isFaulted: Bool, override: AmbienceState?,
            brightness: Int? = nil
        ) {
            self.filtered = filtered
            self.state = state
            self.isFaulted = isFaulted
            self.override = override
            self.brightness = brightness
        }
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
    /// How many fields a row has: two, or as many as the header named.
    private var columns = 2
    private var isRecord = false
    /// Set by a first line `CompactRecord.header`.
    private var compact: CompactRecord.Decoder?

    public init() {}

    /// Every row on `line`, in order: none for a comment, a blank line or the header, and in a
    /// compact record the many rows of a run.
    public mutating func rows(_ line: ArraySlice<UInt8>, _ body: (Row) -> Void) throws(RowError) {
        guard let first = try row(line) else { return }
        body(first)
        while let next = try nextRow() { body(next) }
    }

    /// The first row on this line, or nil for a comment, a blank line or the header; the line's
    /// further rows (a compact record's run) come from `nextRow()`.
    public mutating func row(_ line: ArraySlice<UInt8>) throws(RowError) -> Row? {
        lineNumber += 1
        var line = line
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        if lineNumber == 1, line.elementsEqual(CompactRecord.header.utf8) {
            compact = CompactRecord.Decoder()
            return nil
        }
        if compact != nil {
            do throws(CompactRecord.LineError) {
                guard var row = try compact?.row(line).map(Self.row(recorded:)) else { return nil }
                row.startsRun = compact?.rowStartsRun ?? false
                return row
            } catch {
                throw self.error(error.message, in: line)
            }
        }
        let content = line.firstIndex(of: UInt8(ascii: "#")).map { line[..<$0] } ?? line
        guard let comma = content.firstIndex(of: UInt8(ascii: ",")) else {
            if Self.trimmed(content).isEmpty { return nil }
            throw error(expectedFields, in: line)
        }
        let secondsField = String(decoding: Self.trimmed(content[..<comma]), as: UTF8.self)
        var rest = content[(comma + 1)...]
        let luxEnd = rest.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
        let luxField = String(decoding: Self.trimmed(rest[..<luxEnd]), as: UTF8.self)
        rest = rest[luxEnd...]
        var extra: [String] = []
        while let separator = rest.first, separator == UInt8(ascii: ",") {
            let field = rest.dropFirst()
            let end = field.firstIndex(of: UInt8(ascii: ",")) ?? field.endIndex
            extra.append(String(decoding: Self.trimmed(field[..<end]), as: UTF8.self))
            rest = field[end...]
        }
        if !sawData && Self.isHeader([secondsField, luxField] + extra) {
            columns = 2 + extra.count
            let names = ([secondsField, luxField] + extra).joined(separator: ",")
            isRecord = names == LightRecord.header || names == LightRecord.headerWithoutBrightness
            return nil
        }
        guard 2 + extra.count == columns else { throw error(expectedFields, in: line) }
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
        let recorded = isRecord ? try self.recorded(extra, in: line) : nil
        lastTime = time
        sawData = true
        return Row(time: time, timeText: secondsField, lux: lux, recorded: recorded)
    }

    /// The next row of the line `row(_:)` read last, nil when it had no more.
    public mutating func nextRow() throws(RowError) -> Row? {
        do throws(CompactRecord.LineError) {
            return try compact?.nextInRun().map(Self.row(recorded:))
        } catch {
            throw self.error(error.message, in: [][...])
        }
    }

    private static func row(recorded row: LightRecord.Row) -> Row {
        Row(
            time: row.time, timeText: "", lux: row.lux,
            recorded: Recorded(
                filtered: row.filtered, state: row.state, isFaulted: row.isFaulted, override: row.override,
                brightness: row.brightness))
    }

    private var expectedFields: String {
        columns == 2 ? "expected two fields, seconds,lux" : "expected \(columns) fields, as the header names"
    }

    /// filtered (a number or empty), state (a state or empty), fault (0 or 1), override (a state
    /// or empty), and in a record that has it, brightness (a percent or empty).
    private func recorded(_ fields: [String], in line: ArraySlice<UInt8>) throws(RowError) -> Recorded {
        func state(_ text: String, _ name: String) throws(RowError) -> AmbienceState? {
            if text.isEmpty { return nil }
            guard let state = AmbienceState(rawValue: text) else {
                throw error("\(name) '\(text)' is not invert, regular, contrast or empty", in: line)
            }
            return state
        }
        let filtered: Double?
        if fields[0].isEmpty {
            filtered = nil
        } else if let value = Double(fields[0]), value.isFinite {
            filtered = value
        } else {
            throw error("filtered '\(fields[0])' is not a number or empty", in: line)
        }
        guard fields[2] == "0" || fields[2] == "1" else {
            throw error("fault '\(fields[2])' is not 0 or 1", in: line)
        }
        var brightness: Int?
        if fields.count > 4, !fields[4].isEmpty {
            guard let percent = Int(fields[4]), (0...100).contains(percent) else {
                throw error("brightness '\(fields[4])' is not a percent (0 to 100) or empty", in: line)
            }
            brightness = percent
        }
        return Recorded(
            filtered: filtered, state: try state(fields[1], "state"), isFaulted: fields[2] == "1",
            override: try state(fields[3], "override"), brightness: brightness)
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
