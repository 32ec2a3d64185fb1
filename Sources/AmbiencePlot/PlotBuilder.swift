import AmbienceCore
import AmbienceRecord

/// A trace run through one or two configurations, kept for drawing: `ambience plot` without
/// the I/O. Rows go in one at a time; `svg` draws them. The engine's decisions (events, state,
/// fault and override spans) are kept at their exact times; only the lux lines are decimated.
public struct PlotBuilder {
    /// One configuration's view of the trace.
    public struct Run {
        public let name: String
        public let configuration: EngineConfiguration
        public fileprivate(set) var events: [Event] = []
        /// Where an override held: from, to, and the state it held.
        public fileprivate(set) var overrides: [Span] = []
        fileprivate var engineRun: TraceRun
        fileprivate var summaryBuilder: SummaryBuilder
        fileprivate var overrideSince: (time: Double, state: AmbienceState)?

        init(name: String, configuration: EngineConfiguration) {
            self.name = name
            self.configuration = configuration
            engineRun = TraceRun(configuration: configuration)
            summaryBuilder = SummaryBuilder(configuration: configuration)
        }

        public var summary: TraceSummary { summaryBuilder.finish() }
    }

    /// A stretch of the display's power.
    public struct PowerSpan: Equatable, Sendable {
        public var start: Double
        public var end: Double
        public var power: DisplayPower
    }

    public struct Span: Equatable, Sendable {
        public var start: Double
        public var end: Double
        public var state: AmbienceState?

        public init(start: Double, end: Double, state: AmbienceState?) {
            self.start = start
            self.end = end
            self.state = state
        }
    }

    public private(set) var runs: [Run]
    public private(set) var times: [Double] = []
    /// NaN for a failed read.
    public private(set) var raw: [Double] = []
    /// The first configuration's moving average; NaN before the first valid sample.
    public private(set) var filtered: [Double] = []
    /// The backlight's percent as a record gives it; NaN where it gives none.
    public private(set) var brightness: [Double] = []

    /// Where a daemon's run began (`TraceReader.Row.startsRun`) after the first, on the plot's
    /// time axis.
    public private(set) var runStarts: [Double] = []
    /// What is added to the rows' times: a run whose times start again (a reboot's monotonic
    /// clock) is drawn after the one before it, an interval on, instead of over it.
    private var timeShift = 0.0

    /// `[display]`'s engine over the first configuration's light, when there is a `[display]`.
    private var displayConfiguration: DisplaySleepConfiguration?
    private var displayEngine: DisplaySleepEngine?
    /// Where the display's power changed, from the first row on.
    private var displayChanges: [(time: Double, power: DisplayPower)] = []

    /// Whether the trace (a record of a daemon with `[backlight]`) has a brightness to draw.
    public var hasBrightness: Bool { brightness.contains { $0.isFinite } }

    /// `configurations`: one, or two to compare, each with a name for the legend and table;
    /// `display`: `[display]`'s settings, whose sleep is drawn from the first one's light.
    public init(
        configurations: [(name: String, configuration: EngineConfiguration)],
        display: DisplaySleepConfiguration? = nil
    ) {
        runs = configurations.map { Run(name: $0.name, configuration: $0.configuration) }
        displayConfiguration = display
    }

    public mutating func add(_ row: TraceReader.Row) {
        var row = row
        if row.startsRun, let last = times.last {
            if row.time + timeShift <= last {
                let step = times.count > 1 ? last - times[times.count - 2] : 1
                timeShift = last + step - row.time
            }
            runStarts.append(row.time + timeShift)
        }
        row.time += timeShift
        times.append(row.time)
        raw.append(row.lux ?? .nan)
        brightness.append(row.recorded?.brightness.map(Double.init) ?? .nan)
        for index in runs.indices {
            let events = runs[index].engineRun.feed(row)
            guard let engine = runs[index].engineRun.engine else { continue }
            runs[index].events += events
            runs[index].summaryBuilder.add(row: row, events: events, engine: engine)
            let held = engine.activeOverride?.state
            if held != runs[index].overrideSince?.state {
                if let since = runs[index].overrideSince {
                    runs[index].overrides.append(Span(start: since.time, end: row.time, state: since.state))
                }
                runs[index].overrideSince = held.map { (row.time, $0) }
            }
            if index == 0 {
                filtered.append(engine.filteredLux ?? .nan)
                addToDisplay(row, filtered: engine.filteredLux)
            }
        }
    }

    /// The display as the room alone would have it: a trace holds no touches, and no time of
    /// day for the awake windows. A daemon's new run starts it awake, as the daemon does.
    private mutating func addToDisplay(_ row: TraceReader.Row, filtered: Double?) {
        guard let displayConfiguration else { return }
        if row.startsRun || displayEngine == nil {
            displayEngine = DisplaySleepEngine(configuration: displayConfiguration)
        }
        guard var engine = displayEngine else { return }
        engine.ingest(lux: row.lux, filtered: filtered, at: row.time, minuteOfDay: nil)
        if engine.output != displayChanges.last?.power { displayChanges.append((row.time, engine.output)) }
        displayEngine = engine
    }

    /// The display's power from the first row to the last; empty without `[display]`.
    public func displaySpans() -> [PowerSpan] {
        guard let last = times.last else { return [] }
        return displayChanges.indices.map { index in
            let end = index + 1 < displayChanges.count ? displayChanges[index + 1].time : last
            return PowerSpan(start: displayChanges[index].time, end: end, power: displayChanges[index].power)
        }
    }

    /// The spans of each state shown, from the `change` events of run `index`, to the last row.
    public func stateSpans(of index: Int) -> [Span] {
        guard let first = times.first, let last = times.last else { return [] }
        var spans: [Span] = []
        var since = first
        var state: AmbienceState?
        for event in runs[index].events where event.kind == .change {
            if event.time > since { spans.append(Span(start: since, end: event.time, state: state)) }
            since = event.time
            state = event.state
        }
        if last > since || spans.isEmpty { spans.append(Span(start: since, end: last, state: state)) }
        return spans
    }

    /// From each `fault` to its `recovered`, or to the last row.
    public func faultSpans(of index: Int) -> [Span] {
        var spans: [Span] = []
        var since: Double?
        for event in runs[index].events {
            if event.kind == .fault { since = event.time }
            if event.kind == .recovered, let start = since {
                spans.append(Span(start: start, end: event.time, state: nil))
                since = nil
            }
        }
        if let start = since, let last = times.last {
            spans.append(Span(start: start, end: max(start, last), state: nil))
        }
        return spans
    }

    /// Override spans, an override still held at the end closed at the last row.
    public func overrideSpans(of index: Int) -> [Span] {
        var spans = runs[index].overrides
        if let since = runs[index].overrideSince, let last = times.last {
            spans.append(Span(start: since.time, end: last, state: since.state))
        }
        return spans
    }
}

/// Per pixel column, the least and greatest value of a series: what a line drawn at that width
/// can show, however many samples fall in a column. Columns without a finite value are nil, so
/// the line breaks there.
public enum Decimation {
    public static func columns(
        times: [Double], values: [Double], from start: Double, to end: Double, width: Int
    )
        -> [(min: Double, max: Double)?]
    {
        var columns = [(min: Double, max: Double)?](repeating: nil, count: max(1, width))
        let span = end - start
        for index in times.indices {
            let value = values[index]
            guard value.isFinite else { continue }
            let position = span > 0 ? (times[index] - start) / span : 0
            let column = min(columns.count - 1, max(0, Int(position * Double(columns.count))))
            if let current = columns[column] {
                columns[column] = (Swift.min(current.min, value), Swift.max(current.max, value))
            } else {
                columns[column] = (value, value)
            }
        }
        return columns
    }
}
