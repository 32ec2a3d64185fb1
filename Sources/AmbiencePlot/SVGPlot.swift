import AmbienceCore
import AmbienceRecord

/// Draws a `PlotBuilder` as one self-contained SVG document: no scripts, fonts or links, so it
/// opens in any browser. Every event has an element with an id (`a-event-3`: the first
/// configuration's fourth event) and classes naming its kind and reason, so tests and style
/// sheets can find them.
public enum SVGPlot {
    static let width = 1200.0
    static let left = 70.0
    static let right = 260.0
    static let top = 48.0
    static let plotHeight = 380.0
    static let bandHeight = 22.0
    static let rowHeight = 18.0

    static let stateColours: [AmbienceState: String] = [
        .invert: "#37474f", .regular: "#a5d6a7", .contrast: "#ffd54f",
    ]

    public static func render(_ plot: PlotBuilder, title: String) -> String {
        guard let first = plot.times.first, let last = plot.times.last else {
            return document(
                height: 100, body: text(left, 50, "no rows in the trace", attributes: "class=\"title\""))
        }
        let plotWidth = width - left - right
        let xScale = TimeScale(start: first, end: last, width: plotWidth, left: left)
        let yScale = LogScale(plot: plot, top: top, height: plotHeight)
        let bandsTop = top + plotHeight + 28
        let displaySpans = plot.displaySpans()
        let bands = plot.runs.count + (displaySpans.isEmpty ? 0 : 1)
        let axisTop = bandsTop + Double(bands) * (bandHeight + 6)
        let tableTop = axisTop + 64
        let summaries = plot.runs.map { $0.summary }
        let table = SummaryTable.rows(summaries)
        let height = tableTop + Double(table.count + 1) * rowHeight + 16

        var body = ""
        body += text(left, 24, title, attributes: "class=\"title\"")
        body += rect(left, top, plotWidth, plotHeight, attributes: "class=\"plot-area\"")
        body += faultSpans(plot, xScale)
        body += overrideSpans(plot, xScale, top: top, height: plotHeight)
        body += runStarts(plot, xScale)
        body += boundaries(plot, xScale, yScale)
        body += grid(xScale, yScale)
        body += line(plot.times, plot.raw, xScale, yScale.position, id: "raw")
        body += line(plot.times, plot.filtered, xScale, yScale.position, id: "filtered")
        if plot.hasBrightness {
            let percent = PercentScale(top: top, height: plotHeight)
            body += brightnessAxis(xScale, percent)
            body += line(plot.times, plot.brightness, xScale, percent.position, id: "brightness")
        }
        body += eventMarkers(plot, run: 0, xScale, yScale)
        for index in plot.runs.indices {
            body += stateBand(plot, run: index, xScale, top: bandsTop + Double(index) * (bandHeight + 6))
        }
        for index in plot.runs.indices.dropFirst() {
            body += bandMarkers(plot, run: index, xScale, top: bandsTop + Double(index) * (bandHeight + 6))
        }
        if !displaySpans.isEmpty {
            body += displayBand(
                displaySpans, xScale, top: bandsTop + Double(plot.runs.count) * (bandHeight + 6))
        }
        body += timeAxis(xScale, top: axisTop)
        body += legend(plot, x: left + plotWidth + 76, y: top)
        body += summaryTable(table, names: plot.runs.map { $0.name }, top: tableTop)
        return document(height: height, body: body)
    }

    // MARK: the parts

    private static func faultSpans(_ plot: PlotBuilder, _ x: TimeScale) -> String {
        var out = "<g id=\"faults\">"
        for (index, span) in plot.faultSpans(of: 0).enumerated() {
            out += rect(
                x.position(span.start), top, max(1, x.position(span.end) - x.position(span.start)),
                plotHeight,
                attributes: "class=\"fault-span\" id=\"fault-span-\(index)\"")
        }
        return out + "</g>\n"
    }

    private static func overrideSpans(_ plot: PlotBuilder, _ x: TimeScale, top: Double, height: Double)
        -> String
    {
        var out = "<g id=\"overrides\">"
        for (index, span) in plot.overrideSpans(of: 0).enumerated() {
            out += rect(
                x.position(span.start), top, max(1, x.position(span.end) - x.position(span.start)), height,
                attributes:
                    "class=\"override-span\" id=\"override-span-\(index)\" data-state=\"\(span.state?.rawValue ?? "")\""
            )
        }
        return out + "</g>\n"
    }

    /// Where the daemon started again: a dashed rule, titled, at each run's first row.
    private static func runStarts(_ plot: PlotBuilder, _ x: TimeScale) -> String {
        var out = "<g id=\"run-starts\">"
        for (index, time) in plot.runStarts.enumerated() {
            let position = n(x.position(time))
            out +=
                "<line class=\"run-start\" id=\"run-start-\(index)\" x1=\"\(position)\" y1=\"\(n(top))\" x2=\"\(position)\" y2=\"\(n(top + plotHeight))\"><title>the daemon started again</title></line>"
        }
        return out + "</g>\n"
    }

    private static func boundaries(_ plot: PlotBuilder, _ x: TimeScale, _ y: LogScale) -> String {
        var out = "<g id=\"boundaries\">"
        let x0 = x.left
        let x1 = x.left + x.width
        for (runIndex, run) in plot.runs.enumerated() {
            let thresholds = run.configuration.thresholds
            let prefix = runIndex == 0 ? "a" : "b"
            for (name, boundary) in [
                ("invert-regular", thresholds.invertRegular),
                ("regular-contrast", thresholds.regularContrast),
            ] {
                let fall = y.position(boundary.fall)
                let rise = y.position(boundary.rise)
                if runIndex == 0 {
                    out += rect(
                        x0, rise, x1 - x0, max(0.5, fall - rise),
                        attributes: "class=\"hysteresis\" id=\"\(prefix)-band-\(name)\"")
                }
                out +=
                    "<line class=\"\(prefix)-fall\" id=\"\(prefix)-fall-\(name)\" x1=\"\(n(x0))\" y1=\"\(n(fall))\" x2=\"\(n(x1))\" y2=\"\(n(fall))\"/>"
                out +=
                    "<line class=\"\(prefix)-rise\" id=\"\(prefix)-rise-\(name)\" x1=\"\(n(x0))\" y1=\"\(n(rise))\" x2=\"\(n(x1))\" y2=\"\(n(rise))\"/>"
                if runIndex == 0 {
                    out += text(
                        x1 + 4, rise + 4, "rise \(lux(boundary.rise))", attributes: "class=\"edge-label\"")
                    out += text(
                        x1 + 4, fall + 4, "fall \(lux(boundary.fall))", attributes: "class=\"edge-label\"")
                }
            }
        }
        return out + "</g>\n"
    }

    private static func grid(_ x: TimeScale, _ y: LogScale) -> String {
        var out = "<g id=\"grid\">"
        for decade in y.decades {
            let position = y.position(decade)
            out +=
                "<line class=\"grid\" x1=\"\(n(x.left))\" y1=\"\(n(position))\" x2=\"\(n(x.left + x.width))\" y2=\"\(n(position))\"/>"
            out += text(
                x.left - 6, position + 4, lux(decade), attributes: "class=\"tick\" text-anchor=\"end\"")
        }
        for tick in x.ticks {
            let position = x.position(tick)
            out +=
                "<line class=\"grid\" x1=\"\(n(position))\" y1=\"\(n(top))\" x2=\"\(n(position))\" y2=\"\(n(top + plotHeight))\"/>"
        }
        out += text(
            18, top + plotHeight / 2, "lux (log scale)",
            attributes:
                "class=\"axis-label\" transform=\"rotate(-90 18 \(n(top + plotHeight / 2)))\" text-anchor=\"middle\""
        )
        return out + "</g>\n"
    }

    /// The backlight's axis, on the right: 0 to 100 %, its ticks inside the plot's edge (the
    /// boundaries' labels are outside it).
    private static func brightnessAxis(_ x: TimeScale, _ y: PercentScale) -> String {
        var out = "<g id=\"brightness-axis\">"
        let edge = x.left + x.width
        for percent in stride(from: 0.0, through: 100, by: 25) {
            let position = y.position(percent)
            out +=
                "<line class=\"brightness-axis\" x1=\"\(n(edge - 5))\" y1=\"\(n(position))\" x2=\"\(n(edge))\" y2=\"\(n(position))\"/>"
            out += text(
                edge - 8, position + 4, "\(Int(percent)) %",
                attributes: "class=\"brightness-tick\" text-anchor=\"end\"")
        }
        let middle = top + plotHeight / 2
        out += text(
            edge + 64, middle, "brightness (%)",
            attributes:
                "class=\"brightness-label\" transform=\"rotate(90 \(n(edge + 64)) \(n(middle)))\" text-anchor=\"middle\""
        )
        return out + "</g>\n"
    }

    /// A line through each pixel column's least and greatest value, broken where a column has none.
    private static func line(
        _ times: [Double], _ values: [Double], _ x: TimeScale, _ y: (Double) -> Double, id: String
    )
        -> String
    {
        let columns = Decimation.columns(
            times: times, values: values, from: x.start, to: x.end, width: Int(x.width.rounded()))
        var path = ""
        var drawing = false
        for (index, column) in columns.enumerated() {
            guard let column else {
                drawing = false
                continue
            }
            let position = x.left + Double(index) + 0.5
            path += (drawing ? "L" : "M") + n(position) + "," + n(y(column.max))
            if column.min != column.max { path += "L" + n(position) + "," + n(y(column.min)) }
            drawing = true
        }
        return "<path id=\"\(id)\" class=\"\(id)\" d=\"\(path)\"/>\n"
    }

    private static func eventMarkers(_ plot: PlotBuilder, run: Int, _ x: TimeScale, _ y: LogScale) -> String {
        var out = "<g id=\"a-events\">"
        for (index, event) in plot.runs[run].events.enumerated() {
            let position = x.position(event.time)
            let attributes = eventAttributes(event, id: "a-event-\(index)")
            let tooltip = "<title>\(escape(describe(event, x)))</title>"
            switch event.kind {
            case .fault, .recovered:
                let mark = event.kind == .fault ? "M0,0 l-6,-10 h12 z" : "M0,-10 l-6,10 h12 z"
                out +=
                    "<path \(attributes) transform=\"translate(\(n(position)),\(n(top + 12)))\" d=\"\(mark)\">\(tooltip)</path>"
            case .change, .current:
                let level = y.position(event.lux ?? event.filtered ?? y.minimum)
                out +=
                    "<line class=\"event-rule\" x1=\"\(n(position))\" y1=\"\(n(top))\" x2=\"\(n(position))\" y2=\"\(n(top + plotHeight))\"/>"
                out +=
                    "<circle \(attributes) cx=\"\(n(position))\" cy=\"\(n(level))\" r=\"5\" fill=\"\(stateColours[event.state ?? .regular] ?? "#fff")\">\(tooltip)</circle>"
            }
        }
        return out + "</g>\n"
    }

    /// The second configuration's events as ticks on its band.
    private static func bandMarkers(_ plot: PlotBuilder, run: Int, _ x: TimeScale, top: Double) -> String {
        var out = "<g id=\"b-events\">"
        for (index, event) in plot.runs[run].events.enumerated() {
            let position = x.position(event.time)
            out +=
                "<rect \(eventAttributes(event, id: "b-event-\(index)")) x=\"\(n(position - 1.5))\" y=\"\(n(top - 4))\" width=\"3\" height=\"\(n(bandHeight + 8))\"><title>\(escape(describe(event, x)))</title></rect>"
        }
        return out + "</g>\n"
    }

    private static func eventAttributes(_ event: Event, id: String) -> String {
        "id=\"\(id)\" class=\"event event-\(event.kind.rawValue)\(event.reason.map { " reason-\($0.rawValue)" } ?? "")\""
            + " data-time=\"\(EventLine.number(event.time))\" data-state=\"\(event.state?.rawValue ?? "")\""
    }

    private static func describe(_ event: Event, _ x: TimeScale) -> String {
        var words = "\(event.kind.rawValue) at \(x.label(event.time)) \(x.unit)"
        if event.kind == .change {
            words += ": \(event.previous?.rawValue ?? "none") → \(event.state?.rawValue ?? "none")"
            words += " (\(event.reason?.rawValue ?? "?"))"
        }
        if let lux = event.lux { words += ", \(Self.lux(lux)) lux" }
        return words
    }

    private static func stateBand(_ plot: PlotBuilder, run: Int, _ x: TimeScale, top: Double) -> String {
        let prefix = run == 0 ? "a" : "b"
        var out = "<g id=\"\(prefix)-states\">"
        out += text(
            x.left - 6, top + bandHeight / 2 + 4,
            plot.runs.count > 1 ? (run == 0 ? "A" : "B") : "state",
            attributes: "class=\"band-label\" text-anchor=\"end\"")
        for (index, span) in plot.stateSpans(of: run).enumerated() {
            let start = x.position(span.start)
            let colour = span.state.map { stateColours[$0] ?? "#fff" } ?? "#ffffff"
            out += rect(
                start, top, max(0.5, x.position(span.end) - start), bandHeight,
                attributes:
                    "class=\"state-span state-\(span.state?.rawValue ?? "none")\" id=\"\(prefix)-state-\(index)\" fill=\"\(colour)\""
            )
        }
        for (index, span) in plot.overrideSpans(of: run).enumerated() {
            let start = x.position(span.start)
            out += rect(
                start, top + bandHeight - 5, max(1, x.position(span.end) - start), 5,
                attributes: "class=\"override-mark\" id=\"\(prefix)-override-\(index)\"")
        }
        return out + "</g>\n"
    }

    /// `[display]`'s sleep from the first configuration's light: dark where asleep.
    private static func displayBand(_ spans: [PlotBuilder.PowerSpan], _ x: TimeScale, top: Double) -> String {
        var out = "<g id=\"display-band\">"
        out += text(
            x.left - 6, top + bandHeight / 2 + 4, "display",
            attributes: "class=\"band-label\" text-anchor=\"end\"")
        for (index, span) in spans.enumerated() {
            let start = x.position(span.start)
            out += rect(
                start, top, max(0.5, x.position(span.end) - start), bandHeight,
                attributes: "class=\"display-span display-\(span.power.rawValue)\" id=\"display-\(index)\"")
        }
        return out + "</g>\n"
    }

    private static func timeAxis(_ x: TimeScale, top: Double) -> String {
        var out = "<g id=\"time-axis\">"
        for tick in x.ticks {
            let position = x.position(tick)
            out +=
                "<line class=\"axis\" x1=\"\(n(position))\" y1=\"\(n(top - 4))\" x2=\"\(n(position))\" y2=\"\(n(top + 2))\"/>"
            out += text(
                position, top + 16, x.label(tick), attributes: "class=\"tick\" text-anchor=\"middle\"")
        }
        out += text(
            x.left + x.width / 2, top + 34, "time since the first row (\(x.unitName))",
            attributes: "class=\"axis-label\" text-anchor=\"middle\"")
        return out + "</g>\n"
    }

    private static func legend(_ plot: PlotBuilder, x: Double, y: Double) -> String {
        var out = "<g id=\"legend\">"
        var row = y + 8
        func entry(_ swatch: String, _ label: String) {
            out += swatch + text(x + 26, row + 4, label, attributes: "class=\"legend\"")
            row += 18
        }
        entry(
            "<line class=\"raw\" x1=\"\(n(x))\" y1=\"\(n(row))\" x2=\"\(n(x + 20))\" y2=\"\(n(row))\"/>",
            "raw lux")
        entry(
            "<line class=\"filtered\" x1=\"\(n(x))\" y1=\"\(n(row))\" x2=\"\(n(x + 20))\" y2=\"\(n(row))\"/>",
            "filtered")
        if plot.hasBrightness {
            entry(
                "<line class=\"brightness\" x1=\"\(n(x))\" y1=\"\(n(row))\" x2=\"\(n(x + 20))\" y2=\"\(n(row))\"/>",
                "brightness (right axis)")
        }
        entry(rect(x, row - 6, 20, 12, attributes: "class=\"hysteresis\""), "hysteresis band")
        if plot.runs.count > 1 {
            entry(
                "<line class=\"b-rise\" x1=\"\(n(x))\" y1=\"\(n(row))\" x2=\"\(n(x + 20))\" y2=\"\(n(row))\"/>",
                "B's boundaries")
        }
        entry(rect(x, row - 6, 20, 12, attributes: "class=\"fault-span\""), "sensor fault")
        entry(rect(x, row - 6, 20, 12, attributes: "class=\"override-span\""), "override")
        for state in AmbienceState.allCases {
            entry(
                rect(x, row - 6, 20, 12, attributes: "fill=\"\(stateColours[state] ?? "#fff")\""),
                state.rawValue)
        }
        entry(
            "<circle cx=\"\(n(x + 10))\" cy=\"\(n(row))\" r=\"5\" class=\"event\" fill=\"#a5d6a7\"/>",
            "switch (to the colour)")
        if !plot.displaySpans().isEmpty {
            entry(
                rect(x, row - 6, 20, 12, attributes: "class=\"display-span display-off\""), "display asleep")
        }
        return out + "</g>\n"
    }

    private static func summaryTable(
        _ table: [(label: String, values: [String])], names: [String], top: Double
    )
        -> String
    {
        var out = "<g id=\"summary\">"
        let columnWidth = (width - left - 300) / Double(max(1, names.count))
        for (index, name) in names.enumerated() {
            out += text(
                left + 300 + Double(index) * columnWidth, top,
                (names.count > 1 ? (index == 0 ? "A: " : "B: ") : "") + name,
                attributes: "class=\"table-head\"")
        }
        for (rowIndex, row) in table.enumerated() {
            let y = top + Double(rowIndex + 1) * rowHeight
            out += text(left, y, row.label, attributes: "class=\"table-label\"")
            for (index, value) in row.values.enumerated() {
                out += text(
                    left + 300 + Double(index) * columnWidth, y, value, attributes: "class=\"table-value\"")
            }
        }
        return out + "</g>\n"
    }

    // MARK: SVG text

    private static func document(height: Double, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))" font-family="sans-serif" font-size="12">
        <style>
        .title { font-size: 16px; font-weight: bold; }
        .plot-area { fill: #ffffff; stroke: #9e9e9e; }
        .grid { stroke: #e0e0e0; stroke-width: 1; }
        .axis { stroke: #616161; }
        .tick, .edge-label, .band-label, .legend, .table-label, .table-value { fill: #212121; }
        .edge-label { font-size: 10px; fill: #616161; }
        .axis-label { fill: #424242; }
        .table-head { font-weight: bold; }
        .raw { fill: none; stroke: #9e9e9e; stroke-width: 1; }
        .filtered { fill: none; stroke: #1565c0; stroke-width: 1.6; }
        .brightness { fill: none; stroke: #d81b60; stroke-width: 1.6; stroke-dasharray: 6 2; }
        .brightness-axis { stroke: #d81b60; }
        .brightness-tick, .brightness-label { fill: #ad1457; font-size: 10px; }
        .hysteresis { fill: #ce93d8; fill-opacity: 0.25; stroke: none; }
        .a-rise { stroke: #8e24aa; stroke-width: 1.2; }
        .a-fall { stroke: #8e24aa; stroke-width: 1.2; stroke-dasharray: 5 3; }
        .b-rise, .b-fall { stroke: #ef6c00; stroke-width: 1.2; stroke-dasharray: 2 3; }
        .fault-span { fill: #ef9a9a; fill-opacity: 0.45; }
        .override-span { fill: #80deea; fill-opacity: 0.35; }
        .override-mark { fill: #00838f; }
        .run-start { stroke: #6d4c41; stroke-width: 1.4; stroke-dasharray: 3 3; }
        .event { stroke: #212121; stroke-width: 1; }
        .event-fault { fill: #c62828; }
        .event-recovered { fill: #2e7d32; }
        .event-rule { stroke: #212121; stroke-opacity: 0.15; }
        rect.event { fill: #212121; stroke: none; }
        .state-span { stroke: none; }
        .display-span { stroke: none; }
        .display-on { fill: #eceff1; }
        .display-off { fill: #263238; }
        </style>
        \(body)</svg>

        """
    }

    private static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double, attributes: String)
        -> String
    {
        "<rect \(attributes) x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\"/>"
    }

    private static func text(_ x: Double, _ y: Double, _ content: String, attributes: String) -> String {
        "<text \(attributes) x=\"\(n(x))\" y=\"\(n(y))\">\(escape(content))</text>"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A coordinate with one decimal: plenty for pixels, and short.
    static func n(_ value: Double) -> String { SummaryTable.fixed(value, 1) }

    static func lux(_ value: Double) -> String {
        value >= 100 || value == value.rounded()
            ? SummaryTable.fixed(value, 0) : SummaryTable.fixed(value, value < 1 ? 2 : 1)
    }
}

/// Trace seconds to x pixels, with ticks in seconds, minutes or hours by the trace's length.
struct TimeScale {
    let start: Double
    let end: Double
    let width: Double
    let left: Double
    let unit: String
    let unitName: String
    let unitSeconds: Double
    let ticks: [Double]

    init(start: Double, end: Double, width: Double, left: Double) {
        self.start = start
        self.end = max(end, start + 1e-9)
        self.width = width
        self.left = left
        let duration = self.end - start
        (unit, unitName, unitSeconds) =
            duration >= 3 * 3600
            ? ("h", "hours", 3600) : duration >= 600 ? ("min", "minutes", 60) : ("s", "seconds", 1)
        let span = duration / unitSeconds
        let step =
            [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 1200, 3000].first { span / $0 <= 12 }
            ?? span
        var ticks: [Double] = []
        var value = 0.0
        while value <= span + 1e-9 {
            ticks.append(start + value * unitSeconds)
            value += step
        }
        self.ticks = ticks
    }

    func position(_ time: Double) -> Double { left + (time - start) / (end - start) * width }

    func label(_ time: Double) -> String {
        let value = (time - start) / unitSeconds
        return value == value.rounded() ? SummaryTable.fixed(value, 0) : SummaryTable.fixed(value, 1)
    }
}

/// A percent to y pixels: 0 at the bottom of the plot, 100 at its top.
struct PercentScale {
    let top: Double
    let height: Double

    func position(_ percent: Double) -> Double {
        top + height * (1 - min(max(percent, 0), 100) / 100)
    }
}

/// Lux to y pixels on a log scale spanning whole decades around the data and the thresholds.
struct LogScale {
    let minimum: Double
    let maximum: Double
    let top: Double
    let height: Double
    let decades: [Double]

    init(plot: PlotBuilder, top: Double, height: Double) {
        var low = Double.infinity
        var high = -Double.infinity
        for value in plot.raw where value.isFinite && value > 0 {
            low = min(low, value)
            high = max(high, value)
        }
        for run in plot.runs {
            let thresholds = run.configuration.thresholds
            low = min(low, thresholds.invertRegular.fall)
            high = max(high, thresholds.regularContrast.rise)
        }
        var floor = 0.1
        while floor * 10 <= max(low, 0.1) { floor *= 10 }
        var ceiling = floor * 10
        while ceiling < high { ceiling *= 10 }
        minimum = floor
        maximum = ceiling
        self.top = top
        self.height = height
        var decades: [Double] = []
        var decade = floor
        while decade <= ceiling * 1.000001 {
            decades.append(decade)
            decade *= 10
        }
        self.decades = decades
    }

    func position(_ lux: Double) -> Double {
        let clamped = min(max(lux, minimum), maximum)
        return top + height
            * (1 - (PortableMath.log10(clamped) - PortableMath.log10(minimum))
                / (PortableMath.log10(maximum) - PortableMath.log10(minimum)))
    }
}
