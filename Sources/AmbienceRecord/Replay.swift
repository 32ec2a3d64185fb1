import AmbienceCore

/// `ambience replay` without the I/O: trace rows in (see `TraceReader`), event lines out, in
/// the trace's own time.
public struct Replay {
    public typealias RowError = TraceReader.RowError

    public let configuration: EngineConfiguration
    public let format: EventLine.Format
    private var run: TraceRun
    private var reader = TraceReader()
    private var summary: SummaryBuilder?

    /// `summarize` also adds the rows up for `totals`, which costs a little per row.
    public init(configuration: EngineConfiguration, format: EventLine.Format, summarize: Bool = false) {
        self.configuration = configuration
        self.format = format
        run = TraceRun(configuration: configuration)
        summary = summarize ? SummaryBuilder(configuration: configuration) : nil
    }

    /// What the rows so far add up to (`replay --summary`).
    public var totals: TraceSummary? { summary?.finish() }

    /// The event lines caused by one line of input (often none).
    public mutating func consume(_ line: String) throws(RowError) -> [String] {
        try consume(Array(line.utf8)[...])
    }

    /// The same, straight from the bytes of a line (without its newline): no String per line.
    public mutating func consume(_ line: ArraySlice<UInt8>) throws(RowError) -> [String] {
        guard let first = try reader.row(line) else { return [] }
        var lines = feed(first)
        while let row = try reader.nextRow() { lines += feed(row) }
        return lines
    }

    private mutating func feed(_ row: TraceReader.Row) -> [String] {
        let events = run.feed(row)
        if let engine = run.engine { summary?.add(row: row, events: events, engine: engine) }
        if events.isEmpty { return [] }
        let rowTime = EventLine.isJSONNumber(row.timeText) ? row.timeText : EventLine.number(row.time)
        return events.compactMap { event in
            EventLine.encode(
                event, format: format, time: event.time == row.time ? rowTime : EventLine.number(event.time))
        }
    }
}
