import AmbienceCore

/// The persistent record's own format: a line format that writes only what the reader cannot
/// predict, so a day at 10 Hz costs well under 2 MB of the SD card rather than 43 MB of CSV,
/// and reads back to the very rows the daemon kept (the times and lux bit for bit, so a record
/// replays to the events the daemon emitted). docs/tuning.md describes the lines.
///
/// The reader predicts each row from the rows before it, with the same `Predictor` the writer
/// used, so both agree by construction: the time is the previous one plus the sample interval,
/// the lux the previous row's, the filtered value what `EMAFilter` makes of the sample, and the
/// state, fault, override and brightness the previous row's. A row writes a token for each
/// column the prediction misses; a row with none is an empty line, and a run of them one line
/// `*N`. A lux seen lately is a back-reference, its rank in a table of the recent distinct values
/// (most recently used first), in base 62: at 10 Hz the light wanders among a few dozen of the
/// chip's steps, each one character.
public enum CompactRecord {
    /// The first line of a file in this format.
    public static let header = "ambience-record 2"
    /// Times on the daemon's sample grid are whole milliseconds (see `sampleTime`), written as
    /// integers; any other time is written as its Double.
    public static let ticksPerSecond = 1000.0
    /// How many recent distinct lux values a back-reference can reach.
    public static let tableSize = 4096
    /// The most rows one `*N` line holds (a day of steady light at 10 Hz is nine of them): a
    /// damaged count cannot make a replay run for hours.
    public static let longestRun = 100_000

    /// `now` on the millisecond grid the daemon's sample slots are on (`SampleSchedule`):
    /// rounded up, with a microsecond's tolerance for the grid's own rounding, so never before
    /// `now`.
    public static func sampleTime(_ now: Double) -> Double {
        guard now.isFinite, abs(now) < 1e12 else { return now }
        return (now * ticksPerSecond - 0.001).rounded(.up) / ticksPerSecond
    }

    /// The record's parameters, the filter's time constant and the sample interval, on a line
    /// that starts each stretch of rows and resets every prediction: `!TAU,INTERVAL` where the
    /// daemon started (a new engine, and after a reboot a new monotonic clock, its times
    /// starting again from the boot), `+TAU,INTERVAL` where the same run goes on (a reload
    /// that changed either value, a write after a failed one, a new file after a rotation).
    public struct Parameters: Equatable, Sendable {
        public var timeConstant: Double
        public var interval: Double

        public init(timeConstant: Double, interval: Double) {
            self.timeConstant = timeConstant
            self.interval = interval
        }

        public func line(startingRun: Bool) -> String {
            (startingRun ? "!" : "+") + EventLine.number(timeConstant) + "," + EventLine.number(interval)
                + "\n"
        }
    }

    /// The rows as they are written: one `line(_:)` per row; `finish()` ends a pending run.
    public struct Encoder: Sendable {
        public let parameters: Parameters
        private var predictor: Predictor
        /// Rows predicted in full since the last line written.
        private var run = 0

        public init(parameters: Parameters) {
            self.parameters = parameters
            predictor = Predictor(parameters: parameters)
        }

        /// The text for `row`: often empty, the row being counted into a run.
        public mutating func line(_ row: LightRecord.Row) -> String {
            let tokens = predictor.tokens(for: row)
            if tokens.isEmpty {
                run += 1
                return run == CompactRecord.longestRun ? finish() : ""
            }
            return finish() + tokens + "\n"
        }

        /// The pending run, as empty lines or `*N`, whichever is shorter.
        public mutating func finish() -> String {
            defer { run = 0 }
            if run == 0 { return "" }
            return run < 4 ? String(repeating: "\n", count: run) : "*" + String(run) + "\n"
        }
    }

    public struct LineError: Error, Equatable, Sendable {
        public var message: String
    }

    /// Reads the lines after the header back into rows.
    public struct Decoder: Sendable {
        private var predictor: Predictor?
        /// Rows of the last `*N` line not handed out yet.
        private var pending = 0
        private var runStartsNext = false
        /// Whether the row `row(_:)` gave last is the first of a daemon's run (after `!`).
        public private(set) var rowStartsRun = false

        public init() {}

        /// The first row of `line`, or nil for a parameters line. A `*N` line's further rows come
        /// from `nextInRun()`.
        public mutating func row(_ line: ArraySlice<UInt8>) throws(LineError) -> LightRecord.Row? {
            pending = 0
            rowStartsRun = false
            if let kind = line.first, kind == UInt8(ascii: "!") || kind == UInt8(ascii: "+") {
                let startsRun = kind == UInt8(ascii: "!")
                predictor = Predictor(
                    parameters: try Self.parameters(line.dropFirst()),
                    earliest: startsRun ? nil : predictor?.lastTime)
                runStartsNext = startsRun
                return nil
            }
            guard predictor != nil else {
                throw LineError(message: "a row before the parameters line (!TAU,INTERVAL)")
            }
            if line.first == UInt8(ascii: "*") {
                guard let count = Int(String(decoding: line.dropFirst(), as: UTF8.self)),
                    (1...CompactRecord.longestRun).contains(count)
                else {
                    throw LineError(
                        message: "a run is * and a count of 1 to \(CompactRecord.longestRun) rows")
                }
                pending = count - 1
                return try predicted()
            }
            defer { runStartsNext = false }
            let row = try predictor?.row(from: line)
            rowStartsRun = runStartsNext
            return row
        }

        /// The next row of the run `row(_:)` began, nil after its last.
        public mutating func nextInRun() throws(LineError) -> LightRecord.Row? {
            guard pending > 0 else { return nil }
            pending -= 1
            return try predicted()
        }

        private mutating func predicted() throws(LineError) -> LightRecord.Row? {
            try predictor?.row(from: [][...])
        }

        private static func parameters(_ text: ArraySlice<UInt8>) throws(LineError) -> Parameters {
            let fields = text.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard fields.count == 2, let tau = Double(String(decoding: fields[0], as: UTF8.self)),
                let interval = Double(String(decoding: fields[1], as: UTF8.self)), tau.isFinite, tau > 0,
                interval.isFinite, interval > 0
            else {
                throw LineError(
                    message: "parameters are !TAU,INTERVAL or +TAU,INTERVAL, two positive numbers")
            }
            return Parameters(timeConstant: tau, interval: interval)
        }
    }
}

/// What writer and reader both know of the rows so far, and the prediction it makes of the next.
struct Predictor: Sendable {
    private let interval: Double
    private let intervalTicks: Int64?
    private var time: Double?
    private var ticks: Int64?
    private var lux: Double?
    private var table = RecentValues(capacity: CompactRecord.tableSize)
    private var filter: EMAFilter
    private var filtered: Double?
    private var state: AmbienceState?
    private var isFaulted = false
    private var override: AmbienceState?
    private var brightness: Int?

    /// No row may be before `earliest`: the last time of the stretch this one goes on from.
    private let earliest: Double?

    init(parameters: CompactRecord.Parameters, earliest: Double? = nil) {
        interval = parameters.interval
        intervalTicks = Self.ticks(of: parameters.interval)
        filter = EMAFilter(timeConstant: parameters.timeConstant)
        self.earliest = earliest
    }

    var lastTime: Double? { time ?? earliest }

    /// `time` as whole ticks, when it is exactly that many.
    static func ticks(of time: Double) -> Int64? {
        let count = (time * CompactRecord.ticksPerSecond).rounded()
        guard abs(count) < 9e15, Double(Int64(count)) / CompactRecord.ticksPerSecond == time else {
            return nil
        }
        return Int64(count)
    }

    private var predictedTicks: Int64? {
        guard let ticks, let intervalTicks else { return nil }
        return ticks + intervalTicks
    }

    private var predictedTime: Double? {
        if let next = predictedTicks { return Double(next) / CompactRecord.ticksPerSecond }
        return time.map { $0 + interval }
    }

    /// The filter's value after a sample at `time` with `lux`, as the record keeps it (a Float).
    private mutating func filterPrediction(time: Double, lux: Double?) -> Double? {
        if let lux { filter.update(time: time, lux: lux) }
        return Self.kept(filter.value)
    }

    private static func kept(_ filtered: Double?) -> Double? {
        guard let filtered else { return nil }
        let float = Float(filtered)
        return float.isFinite ? Double(float) : nil
    }

    /// The writer's side: the tokens for the columns of `row` the prediction misses, in the order
    /// the reader takes them (a back-reference first, being bare digits), and the row taken in.
    mutating func tokens(for row: LightRecord.Row) -> String {
        var text = ""
        let rowLux = row.lux.flatMap { $0.isFinite ? $0 : nil }
        if rowLux?.bitPattern != lux?.bitPattern {
            if let value = rowLux {
                if let rank = table.use(value) {
                    text += Base62.text(rank)
                } else {
                    text += "=" + Self.number(value)
                }
            } else {
                text += "?"
            }
        } else if let value = rowLux {
            _ = table.use(value)
        }
        if row.time.bitPattern != predictedTime?.bitPattern {
            if let count = Self.ticks(of: row.time) {
                text += predictedTicks.map { "@" + String(count - $0) } ?? "^" + String(count)
            } else {
                text += "'" + Self.number(row.time)
            }
        }
        let wanted = Self.kept(row.filtered)
        if filterPrediction(time: row.time, lux: rowLux)?.bitPattern != wanted?.bitPattern {
            text += "~" + (wanted.map(Self.number) ?? "")
            filter.replaceValue(with: wanted)
        }
        if row.state != state { text += "%" + Self.letter(row.state) }
        if row.isFaulted != isFaulted { text += row.isFaulted ? ";1" : ";0" }
        if row.override != override { text += ":" + Self.letter(row.override) }
        if row.brightness != brightness { text += "/" + (row.brightness.map { String($0) } ?? "") }
        accept(time: row.time, lux: rowLux, filtered: wanted, row: row)
        return text
    }

    private mutating func accept(time: Double, lux: Double?, filtered: Double?, row: LightRecord.Row) {
        self.time = time
        ticks = Self.ticks(of: time)
        self.lux = lux
        self.filtered = filtered
        state = row.state
        isFaulted = row.isFaulted
        override = row.override
        brightness = row.brightness
    }

    /// The reader's side: the row `line` describes (an empty line: the row predicted in full).
    mutating func row(from line: ArraySlice<UInt8>) throws(CompactRecord.LineError) -> LightRecord.Row {
        var rest = line
        var rowLux = lux
        var luxGiven = false
        let digits = rest.prefix { Base62.value($0) != nil }
        if !digits.isEmpty {
            guard let rank = Base62.number(digits), let value = table.value(at: rank) else {
                throw CompactRecord.LineError(
                    message: "lux back-reference '\(Self.text(digits))' beyond the table")
            }
            rowLux = value
            luxGiven = true
            rest = rest.dropFirst(digits.count)
        }
        var rowTime = predictedTime
        var filteredToken: ArraySlice<UInt8>?
        var row = LightRecord.Row(
            time: 0, lux: nil, filtered: nil, state: state, isFaulted: isFaulted, override: override,
            brightness: brightness)
        while let tag = rest.first {
            rest = rest.dropFirst()
            let end = rest.firstIndex { Self.tags.contains($0) } ?? rest.endIndex
            let value = rest[..<end]
            rest = rest[end...]
            switch tag {
            case UInt8(ascii: "="):
                guard !luxGiven, let number = Self.double(value) else { throw bad("lux", tag, value) }
                rowLux = number
                luxGiven = true
            case UInt8(ascii: "?"):
                guard !luxGiven, value.isEmpty else { throw bad("lux", tag, value) }
                rowLux = nil
                luxGiven = true
            case UInt8(ascii: "@"):
                guard let offset = Int64(Self.text(value)), let next = predictedTicks else {
                    throw bad("time", tag, value)
                }
                rowTime = Double(next + offset) / CompactRecord.ticksPerSecond
            case UInt8(ascii: "^"):
                guard let count = Int64(Self.text(value)), abs(count) < 9_000_000_000_000_000 else {
                    throw bad("time", tag, value)
                }
                rowTime = Double(count) / CompactRecord.ticksPerSecond
            case UInt8(ascii: "'"):
                guard let number = Self.double(value) else { throw bad("time", tag, value) }
                rowTime = number
            case UInt8(ascii: "~"):
                guard value.isEmpty || Self.double(value) != nil else { throw bad("filtered", tag, value) }
                filteredToken = value
            case UInt8(ascii: "%"):
                row.state = try state(value, tag)
            case UInt8(ascii: ";"):
                guard value.count == 1, value.first == UInt8(ascii: "0") || value.first == UInt8(ascii: "1")
                else {
                    throw bad("fault", tag, value)
                }
                row.isFaulted = value.first == UInt8(ascii: "1")
            case UInt8(ascii: ":"):
                row.override = try state(value, tag)
            case UInt8(ascii: "/"):
                if value.isEmpty {
                    row.brightness = nil
                } else {
                    guard let percent = Int(Self.text(value)), (0...100).contains(percent) else {
                        throw bad("brightness", tag, value)
                    }
                    row.brightness = percent
                }
            default:
                throw CompactRecord.LineError(message: "unknown token '\(Self.text([tag] + value))'")
            }
        }
        guard let rowTime else {
            throw CompactRecord.LineError(message: "the first row after the parameters has no time")
        }
        if let previous = lastTime, !(rowTime >= previous) {
            throw CompactRecord.LineError(
                message: "time goes backwards (previous row: \(EventLine.number(previous)) s)")
        }
        // The same moves in the table as the writer's: every valid lux is used.
        if let value = rowLux { _ = table.use(value) }
        var filtered = filterPrediction(time: rowTime, lux: rowLux)
        if let token = filteredToken {
            filtered = token.isEmpty ? nil : Self.double(token)
            filter.replaceValue(with: filtered)
        }
        row.time = rowTime
        row.lux = rowLux
        row.filtered = filtered
        accept(time: rowTime, lux: rowLux, filtered: filtered, row: row)
        return row
    }

    /// The shortest digits that read back as `value`, its sign kept for -0 (written "0" by
    /// JSON, which the record cannot afford: lux is kept bit for bit).
    private static func number(_ value: Double) -> String {
        value == 0 && value.sign == .minus ? "-0" : EventLine.number(value)
    }

    private static let tags: [UInt8] = Array("=?@^'~%;:/".utf8)

    private func state(_ value: ArraySlice<UInt8>, _ tag: UInt8) throws(CompactRecord.LineError)
        -> AmbienceState?
    {
        switch value.first {
        case UInt8(ascii: "i") where value.count == 1: return .invert
        case UInt8(ascii: "r") where value.count == 1: return .regular
        case UInt8(ascii: "c") where value.count == 1: return .contrast
        case UInt8(ascii: "_") where value.count == 1: return nil
        default: throw bad(tag == UInt8(ascii: "%") ? "state" : "override", tag, value)
        }
    }

    private static func letter(_ state: AmbienceState?) -> String {
        switch state {
        case .invert?: "i"
        case .regular?: "r"
        case .contrast?: "c"
        case nil: "_"
        }
    }

    private func bad(_ column: String, _ tag: UInt8, _ value: ArraySlice<UInt8>) -> CompactRecord.LineError {
        CompactRecord.LineError(message: column + " token '" + Self.text([tag] + value) + "' is malformed")
    }

    private static func text<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    private static func double(_ bytes: ArraySlice<UInt8>) -> Double? {
        guard !bytes.isEmpty, let value = Double(text(bytes)), value.isFinite else { return nil }
        return value
    }
}

/// The recent distinct lux values, most recently used first, in a ring allocated once: using a
/// value moves it to the front (shifting only the values before it), a new one takes the place
/// of the oldest.
struct RecentValues: Sendable {
    private var values: [Double] = []
    /// Where the front (rank 0) is in `values`.
    private var front = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        values.reserveCapacity(self.capacity)
    }

    private func slot(_ rank: Int) -> Int { (front + rank) % values.count }

    func value(at rank: Int) -> Double? {
        rank >= 0 && rank < values.count ? values[slot(rank)] : nil
    }

    /// Moves `value` to the front; returns the rank it had, nil when it was not in the table
    /// (it is added, the oldest dropped when the table is full).
    mutating func use(_ value: Double) -> Int? {
        let bits = value.bitPattern
        var rank = 0
        while rank < values.count, values[slot(rank)].bitPattern != bits { rank += 1 }
        if rank < values.count {
            var index = rank
            while index > 0 {
                values[slot(index)] = values[slot(index - 1)]
                index -= 1
            }
            values[front] = value
            return rank
        }
        if values.count < capacity {
            // Not yet full: the ring is still a plain array with its front at 0.
            values.insert(value, at: 0)
            return nil
        }
        front = (front + values.count - 1) % values.count
        values[front] = value
        return nil
    }
}

/// Non-negative integers in base 62 (0-9, A-Z, a-z): a back-reference below 62 is one character.
enum Base62 {
    static func value(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 36
        default: nil
        }
    }

    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.count <= 4 else { return nil }
        var result = 0
        for byte in digits {
            guard let digit = value(byte) else { return nil }
            result = result * 62 + digit
        }
        return result
    }

    static func text(_ number: Int) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var digits: [UInt8] = []
        var rest = max(0, number)
        repeat {
            digits.append(alphabet[rest % 62])
            rest /= 62
        } while rest > 0
        return String(decoding: digits.reversed(), as: UTF8.self)
    }
}
