import AmbienceCore

/// What a trace adds up to under one configuration (`replay --summary`, `plot --compare`).
public struct TraceSummary: Equatable, Sendable {
    /// From the first row to the last, seconds.
    public var duration: Double = 0
    /// `change` events other than the startup one: light, override and auto alike, since the
    /// display shows each of them.
    public var switches = 0
    /// Switches that came less than `quickSwitchWindow` after the switch before them.
    public var quickSwitches = 0
    /// Seconds each state was shown, by `AmbienceState.rank`.
    public var timeInState: [Double] = [0, 0, 0]
    /// Seconds before the first state.
    public var timeWithoutState: Double = 0
    /// Seconds between a `fault` and its `recovered` (or the end).
    public var timeFaulted: Double = 0
    public var faults = 0
    /// The longest time from the start of a clear level (every valid sample in one state's
    /// unambiguous zone, no failed read, no override) to that state being shown; nil when the
    /// trace has no clear level that reached its state.
    public var longestWait: Double?
    /// Clear levels that lasted longer than L without their state being shown (G1 says none).
    public var clearLevelsMissed = 0
    /// L, to read `longestWait` against.
    public var latencyBound: Double

    public static let quickSwitchWindow = 60.0

    public var switchesPerDay: Double { duration > 0 ? Double(switches) * 86_400 / duration : 0 }

    public init(latencyBound: Double) { self.latencyBound = latencyBound }
}

/// Adds up a trace row by row, from the events and the engine after each row.
public struct SummaryBuilder: Sendable {
    private let thresholds: Thresholds
    private var summary: TraceSummary
    private var firstTime: Double?
    private var lastTime = 0.0
    private var shown: AmbienceState?
    private var shownSince = 0.0
    private var faultSince: Double?
    private var lastSwitch: Double?
    /// The clear level under way: its state, since when, and whether that state was reached.
    private var clear: (state: AmbienceState, since: Double, latest: Double, reached: Bool)?

    public init(configuration: EngineConfiguration) {
        thresholds = configuration.thresholds
        summary = TraceSummary(latencyBound: configuration.latencyBound)
    }

    public mutating func add(row: TraceReader.Row, events: [Event], engine: Engine) {
        if firstTime == nil {
            firstTime = row.time
            shownSince = row.time
        }
        for event in events { take(event) }
        lastTime = row.time
        followClearLevel(row: row, engine: engine)
    }

    private mutating func take(_ event: Event) {
        switch event.kind {
        case .change:
            closeShownSpan(at: event.time)
            shown = event.state
            if event.reason != .startup {
                summary.switches += 1
                if let lastSwitch, event.time - lastSwitch < TraceSummary.quickSwitchWindow {
                    summary.quickSwitches += 1
                }
                lastSwitch = event.time
            }
        case .fault:
            summary.faults += 1
            faultSince = event.time
        case .recovered:
            if let since = faultSince { summary.timeFaulted += event.time - since }
            faultSince = nil
        case .current:
            break
        }
    }

    private mutating func closeShownSpan(at time: Double) {
        let span = max(0, time - shownSince)
        if let shown { summary.timeInState[shown.rank] += span } else { summary.timeWithoutState += span }
        shownSince = time
    }

    private mutating func followClearLevel(row: TraceReader.Row, engine: Engine) {
        guard let lux = row.lux, engine.activeOverride == nil,
            let level = thresholds.unambiguousState(lux: lux)
        else {
            endClearLevel()
            return
        }
        if clear?.state != level {
            endClearLevel()
            clear = (level, row.time, row.time, false)
        }
        clear?.latest = row.time
        if let run = clear, !run.reached, engine.state == level {
            summary.longestWait = max(summary.longestWait ?? 0, row.time - run.since)
            clear?.reached = true
        }
    }

    private mutating func endClearLevel() {
        if let run = clear, !run.reached, run.latest - run.since > summary.latencyBound {
            summary.clearLevelsMissed += 1
        }
        clear = nil
    }

    /// The totals up to the last row so far.
    public func finish() -> TraceSummary {
        var copy = self
        copy.closeShownSpan(at: lastTime)
        if let since = copy.faultSince { copy.summary.timeFaulted += lastTime - since }
        copy.endClearLevel()
        copy.summary.duration = lastTime - (firstTime ?? lastTime)
        return copy.summary
    }
}

/// The summary as a text table, one column per configuration.
public enum SummaryTable {
    public static func rows(_ summaries: [TraceSummary]) -> [(label: String, values: [String])] {
        func each(_ value: (TraceSummary) -> String) -> [String] { summaries.map(value) }
        var rows: [(label: String, values: [String])] = [
            ("duration", each { duration($0.duration) }),
            ("switches per day", each { "\(fixed($0.switchesPerDay, 1)) (\($0.switches) in all)" }),
            ("switches within 60 s of the one before", each { "\($0.quickSwitches)" }),
        ]
        for state in AmbienceState.allCases {
            rows.append(
                ("time \(state.rawValue)", each { share($0.timeInState[state.rank], of: $0.duration) }))
        }
        if summaries.contains(where: { $0.timeWithoutState > 0 }) {
            rows.append(("time without a state", each { share($0.timeWithoutState, of: $0.duration) }))
        }
        rows.append(
            (
                "time in a sensor fault",
                each {
                    "\(share($0.timeFaulted, of: $0.duration)), \($0.faults) \($0.faults == 1 ? "fault" : "faults")"
                }
            ))
        rows.append(
            (
                "longest wait, clear level to its state",
                each { summary in
                    (summary.longestWait.map { duration($0) } ?? "none")
                        + " (L = \(duration(summary.latencyBound)))"
                }
            ))
        rows.append(("clear levels not shown within L", each { String($0.clearLevelsMissed) }))
        return rows
    }

    /// Aligned columns under `names`.
    public static func text(_ summaries: [TraceSummary], names: [String]) -> String {
        let table = rows(summaries)
        let labelWidth = table.map { $0.label.count }.max() ?? 0
        var widths = names.map { $0.count }
        for row in table {
            for (index, value) in row.values.enumerated() { widths[index] = max(widths[index], value.count) }
        }
        func line(_ label: String, _ values: [String]) -> String {
            var text = label + String(repeating: " ", count: labelWidth - label.count)
            for (index, value) in values.enumerated() {
                text +=
                    "  " + value
                    + (index == values.count - 1
                        ? "" : String(repeating: " ", count: widths[index] - value.count))
            }
            return text + "\n"
        }
        return line("", names) + table.map { line($0.label, $0.values) }.joined()
    }

    /// Seconds for people: `4.9 s`, `12 min 30 s`, `3 h 05 min`.
    public static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return fixed(seconds, seconds < 10 ? 2 : 1) + " s" }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return "\(whole / 60) min \(twoDigits(whole % 60)) s" }
        return "\(whole / 3600) h \(twoDigits(whole % 3600 / 60)) min"
    }

    static func share(_ seconds: Double, of total: Double) -> String {
        let percent = total > 0 ? seconds / total * 100 : 0
        return duration(seconds) + " (" + fixed(percent, 1) + " %)"
    }

    /// `value` with `places` decimals, without Foundation's formatting.
    public static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if places > 0 {
            let fraction = String(scaled % Int64(scale))
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
