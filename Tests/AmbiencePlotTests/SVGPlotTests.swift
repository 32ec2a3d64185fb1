import AmbienceCore
import AmbiencePlot
import AmbienceRecord
import Testing

let plotThresholds = try! Thresholds(
    invertRegular: Boundary(fall: 10, rise: 20), regularContrast: Boundary(fall: 500, rise: 1000))
let plotConfiguration = try! EngineConfiguration(
    thresholds: plotThresholds, timeConstant: 1, minimumDwell: 5, latencyBound: 12, sampleInterval: 1,
    faultAfter: 10)

func plot(
    _ rows: [(Double, Double?)], compare: EngineConfiguration? = nil,
    display: DisplaySleepConfiguration? = nil
) throws -> PlotBuilder {
    var configurations = [(name: "a", configuration: plotConfiguration)]
    if let compare { configurations.append((name: "b", configuration: compare)) }
    var builder = PlotBuilder(configurations: configurations, display: display)
    var reader = TraceReader()
    for (time, lux) in rows {
        if let row = try reader.row(Array("\(time),\(lux.map { "\($0)" } ?? "nan")".utf8)[...]) {
            builder.add(row)
        }
    }
    return builder
}

struct DecimationTests {
    @Test func eachColumnKeepsItsExtremes() {
        let times = (0..<1000).map(Double.init)
        var values = times.map { _ in 100.0 }
        values[503] = 1  // one dark sample among a thousand, in a 10-column picture
        values[504] = .nan
        let columns = Decimation.columns(times: times, values: values, from: 0, to: 999, width: 10)
        #expect(columns.count == 10)
        #expect(columns[5]?.min == 1 && columns[5]?.max == 100)
        #expect(columns.enumerated().allSatisfy { $0.offset == 5 || $0.element?.min == 100 })
    }

    @Test func aColumnWithOnlyFailedReadsBreaksTheLine() {
        let columns = Decimation.columns(
            times: [0, 1, 2, 3], values: [5, .nan, .nan, 5], from: 0, to: 3, width: 4)
        #expect(columns[1] == nil && columns[2] == nil)
        #expect(columns[0]?.max == 5 && columns[3]?.max == 5)
    }
}

struct SVGPlotTests {
    /// Regular, dark from 100 s, the sensor gone from 200 to 260 s, bright from 300 s.
    static let day: [(Double, Double?)] = (0...400).map { t in
        let time = Double(t)
        if (200..<260).contains(t) { return (time, nil) }
        return (time, t < 100 ? 300 : t < 300 ? 2 : 5000)
    }

    @Test func everyEventHasAnElementAtItsExactTime() throws {
        let builder = try plot(Self.day)
        let events = builder.runs[0].events
        #expect(events.map(\.kind) == [.change, .change, .fault, .recovered, .change])
        let svg = SVGPlot.render(builder, title: "day")
        for (index, event) in events.enumerated() {
            #expect(svg.contains("id=\"a-event-\(index)\" class=\"event event-\(event.kind.rawValue)"))
            #expect(svg.contains("data-time=\"\(EventLine.number(event.time))\""))
        }
        #expect(!svg.contains("a-event-\(events.count)\""))
    }

    @Test func faultAndStateSpansComeFromTheEvents() throws {
        let builder = try plot(Self.day)
        #expect(builder.faultSpans(of: 0) == [PlotBuilder.Span(start: 209, end: 260, state: nil)])
        #expect(builder.stateSpans(of: 0).map(\.state) == [.regular, .invert, .contrast])
        #expect(builder.stateSpans(of: 0).map(\.start) == [0, 105, 305])
        let svg = SVGPlot.render(builder, title: "day")
        #expect(svg.contains("id=\"fault-span-0\""))
        #expect(svg.contains("class=\"state-span state-invert\" id=\"a-state-1\""))
    }

    @Test func aRunAfterARebootIsDrawnAfterTheOneBefore() throws {
        // Two boots of a compact record: 100 s bright, then 100 s dark, its clock starting again.
        let text = CompactRecord.header + "\n!1,1\n=300^10000\n*99\n!1,1\n=2^5000\n*99\n"
        var builder = PlotBuilder(configurations: [(name: "a", configuration: plotConfiguration)])
        var reader = TraceReader()
        for line in text.split(separator: "\n") { try reader.rows(Array(line.utf8)[...]) { builder.add($0) } }
        #expect(builder.times.count == 200)
        #expect(zip(builder.times, builder.times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(builder.runStarts == [110])
        // A new engine: the second run's first state is a startup, at once, not a light switch.
        let changes = builder.runs[0].events.filter { $0.kind == .change }
        #expect(changes.map(\.reason) == [.startup, .startup] && changes.map(\.time) == [10, 110])
        #expect(SVGPlot.render(builder, title: "two boots").contains("id=\"run-start-0\""))
    }

    @Test func aComparisonAddsASecondBandAndItsEvents() throws {
        let quick = try EngineConfiguration(
            thresholds: plotThresholds, timeConstant: 1, minimumDwell: 1, latencyBound: 4, sampleInterval: 1,
            faultAfter: 10)
        let builder = try plot(Self.day, compare: quick)
        #expect(builder.runs[1].events.filter { $0.kind == .change }.map(\.time) == [0, 101, 301])
        let svg = SVGPlot.render(builder, title: "day <compared> & more")
        #expect(svg.contains("id=\"b-state-1\"") && svg.contains("id=\"b-event-0\""))
        #expect(svg.contains("day &lt;compared&gt; &amp; more"))
        #expect(svg.contains("id=\"b-rise-invert-regular\""))
    }

    @Test func theRecordsOverridesAreDrawnAsSpans() throws {
        var builder = PlotBuilder(configurations: [(name: "a", configuration: plotConfiguration)])
        var reader = TraceReader()
        for line in [
            LightRecord.headerWithoutBrightness, "0,300,,regular,0,", "1,300,,contrast,0,contrast",
            "5,300,,regular,0,",
        ] {
            if let row = try reader.row(Array(line.utf8)[...]) { builder.add(row) }
        }
        #expect(builder.overrideSpans(of: 0) == [PlotBuilder.Span(start: 1, end: 5, state: .contrast)])
        #expect(SVGPlot.render(builder, title: "o").contains("id=\"override-span-0\""))
        // An older record has no brightness: no second trace, no right-hand axis.
        #expect(!builder.hasBrightness)
        #expect(!SVGPlot.render(builder, title: "o").contains("id=\"brightness"))
    }

    @Test func aRecordsBrightnessIsASecondTraceOnARightHandPercentAxis() throws {
        var builder = PlotBuilder(configurations: [(name: "a", configuration: plotConfiguration)])
        var reader = TraceReader()
        for line in [
            LightRecord.header, "0,5,,invert,0,,0", "50,300,,regular,0,,", "100,3000,,contrast,0,,100",
        ] {
            if let row = try reader.row(Array(line.utf8)[...]) { builder.add(row) }
        }
        #expect(builder.hasBrightness)
        #expect(builder.brightness.map { $0.isNaN ? -1 : $0 } == [0, -1, 100])
        let svg = SVGPlot.render(builder, title: "b")
        #expect(svg.contains("<g id=\"brightness-axis\">") && svg.contains(">100 %</text>"))
        #expect(svg.contains(">brightness (right axis)</text>"))
        // 0 % at the plot's bottom (48 + 380), 100 % at its top (48); a row without a percent
        // breaks the line.
        let path = try #require(svg.split(separator: "\n").first { $0.contains("id=\"brightness\"") })
        #expect(path.contains(",428.0") && path.contains(",48.0"))
        #expect(path.filter { $0 == "M" }.count == 2)
    }
}

struct DisplayBandTests {
    static let sleep = try! DisplaySleepConfiguration(
        sleepBelow: 3, wakeAbove: 10, sleepAfter: 600, wakeAfter: 2, awake: [])
    /// Lit, dark from 100 s, lit again from 2000 s.
    static let night: [(Double, Double?)] = (0...2100).map { t in
        (Double(t), t < 100 || t >= 2000 ? 300 : 0.5)
    }

    @Test func theDisplaySleepsAfterTheDarkAndWakesWithTheLight() throws {
        let builder = try plot(Self.night, display: Self.sleep)
        let spans = builder.displaySpans()
        #expect(spans.map(\.power) == [.on, .off, .on])
        // The average (tau 1 s) falls below 3 lx about 5 s after the dark; ten minutes on it sleeps.
        #expect(spans[1].start > 700 && spans[1].start < 710)
        #expect(spans[2].start == 2002)
        #expect(spans.last?.end == 2100)
        let svg = SVGPlot.render(builder, title: "night")
        #expect(svg.contains("<g id=\"display-band\">"))
        #expect(svg.contains("class=\"display-span display-off\" id=\"display-1\""))
        #expect(svg.contains("display asleep"))
    }

    @Test func aFailedReadIsNoDarkness() throws {
        var rows = Self.night
        rows[400] = (400, nil)
        let spans = try plot(rows, display: Self.sleep).displaySpans()
        #expect(spans[1].start > 1000)  // the ten minutes counted again after it
    }

    @Test func withoutDisplayThereIsNoBand() throws {
        let builder = try plot(Self.night)
        #expect(builder.displaySpans().isEmpty)
        #expect(!SVGPlot.render(builder, title: "night").contains("display-band"))
    }
}
