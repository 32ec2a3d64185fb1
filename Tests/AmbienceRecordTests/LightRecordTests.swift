import AmbienceCore
import AmbienceRecord
import AmbienceTestSupport
import Testing

struct LightRecordTests {
    static func row(
        _ time: Double, _ lux: Double?, state: AmbienceState? = .regular, override: AmbienceState? = nil
    )
        -> LightRecord.Row
    {
        LightRecord.Row(
            time: time, lux: lux, filtered: lux, state: state, isFaulted: lux == nil, override: override)
    }

    @Test func theRingHoldsTheNewestRowsOldestFirst() {
        var record = LightRecord(capacity: 3)
        for time in 0..<5 { record.append(Self.row(Double(time), Double(time) * 10)) }
        #expect(record.count == 3)
        #expect(record.rows.map(\.time) == [2, 3, 4])
        #expect(record.rows.map(\.lux) == [20, 30, 40])
    }

    @Test func rowsKeepExactDoublesFlagsAndAbsentValues() {
        var record = LightRecord(capacity: 4)
        let odd = 0.1 + 0.2
        record.append(
            LightRecord.Row(
                time: odd, lux: 1.0 / 3, filtered: nil, state: nil, isFaulted: false, override: nil))
        record.append(
            LightRecord.Row(
                time: 7, lux: nil, filtered: 2.5, state: .contrast, isFaulted: true, override: .invert))
        #expect(record.row(at: 0).time == odd)
        #expect(record.row(at: 0).lux == 1.0 / 3)
        #expect(record.row(at: 0).filtered == nil && record.row(at: 0).state == nil)
        #expect(
            record.row(at: 1)
                == LightRecord.Row(
                    time: 7, lux: nil, filtered: 2.5, state: .contrast, isFaulted: true, override: .invert))
        #expect(LightRecord.line(record.row(at: 1)) == "7,nan,2.5,contrast,1,invert,\n")
    }

    @Test func aRecordReadsBackAsATraceWithItsColumns() throws {
        var reader = TraceReader()
        let odd = 0.1 + 0.2
        let lines = [
            LightRecord.header,
            String(
                LightRecord.line(
                    LightRecord.Row(
                        time: odd, lux: 1.0 / 3, filtered: 0.5, state: .invert, isFaulted: false,
                        override: nil)
                ).dropLast()),
            "1,nan,,regular,1,contrast,",
        ]
        let rows = try lines.compactMap { line in try reader.row(Array(line.utf8)[...]) }
        #expect(rows.count == 2)
        #expect(rows[0].time == odd && rows[0].lux == 1.0 / 3)
        #expect(
            rows[0].recorded
                == TraceReader.Recorded(filtered: 0.5, state: .invert, isFaulted: false, override: nil))
        #expect(rows[1].lux == nil)
        #expect(
            rows[1].recorded
                == TraceReader.Recorded(filtered: nil, state: .regular, isFaulted: true, override: .contrast))
    }

    @Test func aHeaderMayNameMoreColumnsThatAreIgnored() throws {
        var reader = TraceReader()
        #expect(try reader.row(Array("seconds,lux,note".utf8)[...]) == nil)
        let row = try reader.row(Array("1,5,hello".utf8)[...])
        #expect(row?.lux == 5 && row?.recorded == nil)
        #expect(throws: TraceReader.RowError.self) { try reader.row(Array("2,5".utf8)[...]) }
    }

    /// The refusal of one line, as `replay` would print it.
    static func refusal(_ reader: inout TraceReader, _ line: String) -> String? {
        do {
            _ = try reader.row(Array(line.utf8)[...])
            return nil
        } catch {
            return error.description
        }
    }

    @Test func withoutAHeaderRowsStillHaveTwoFields() {
        var reader = TraceReader()
        #expect(Self.refusal(&reader, "1,5,x") == "line 1: expected two fields, seconds,lux: 1,5,x")
    }

    @Test func aRecordRowWithABadColumnNamesIt() throws {
        var reader = TraceReader()
        _ = try reader.row(Array(LightRecord.headerWithoutBrightness.utf8)[...])
        #expect(
            Self.refusal(&reader, "1,5,,dim,0,")
                == "line 2: state 'dim' is not invert, regular, contrast or empty: 1,5,,dim,0,")
        #expect(Self.refusal(&reader, "1,5,,,2,") == "line 3: fault '2' is not 0 or 1: 1,5,,,2,")
        #expect(
            Self.refusal(&reader, "1,5,x,,0,") == "line 4: filtered 'x' is not a number or empty: 1,5,x,,0,")
    }

    @Test func replayAppliesTheOverrideColumnWhereItChanges() throws {
        var replay = Replay(configuration: testConfiguration(), format: .json)
        var lines: [String] = []
        for line in [
            LightRecord.headerWithoutBrightness, "0,300,,regular,0,", "1,300,,contrast,0,contrast",
            "2,300,,contrast,0,contrast",
            "3,300,,regular,0,",
        ] {
            lines += try replay.consume(line)
        }
        #expect(lines.count == 3)
        #expect(lines[1].contains("\"state\":\"contrast\"") && lines[1].contains("\"reason\":\"override\""))
        #expect(lines[1].contains("\"time\":1,\"override\":\"contrast\""))
        #expect(lines[2].contains("\"state\":\"regular\"") && lines[2].contains("\"reason\":\"auto\""))
    }
}

/// `replay --summary` on hand-made traces with known answers (thresholds: invert below 10,
/// back above 20; contrast above 1000, back below 500; D = 5, L = 12, P = 1).
struct TraceSummaryTests {
    static func summary(
        _ rows: [(Double, Double?)], _ configuration: EngineConfiguration = testConfiguration()
    )
        throws -> TraceSummary
    {
        var replay = Replay(configuration: configuration, format: .json, summarize: true)
        for (time, lux) in rows { _ = try replay.consume("\(time),\(lux.map { "\($0)" } ?? "nan")") }
        return try #require(replay.totals)
    }

    @Test func aSteadyTraceHasNoSwitchesAndOneState() throws {
        let totals = try Self.summary((0...100).map { (Double($0), 300) })
        #expect(totals.duration == 100)
        #expect(totals.switches == 0 && totals.switchesPerDay == 0)
        #expect(totals.timeInState == [0, 100, 0])
        #expect(totals.longestWait == 0)
        #expect(totals.clearLevelsMissed == 0)
    }

    @Test func aStepDownWaitsOneDwell() throws {
        // Dark from 50 s: raw evidence from 50, the switch at 55 (D = 5 after the evidence began).
        let totals = try Self.summary((0...200).map { (Double($0), $0 < 50 ? 300 : 2) })
        #expect(totals.switches == 1)
        #expect(totals.switchesPerDay == 432)  // one in 200 s
        #expect(totals.timeInState == [145, 55, 0])
        #expect(totals.longestWait == 5)
        #expect(totals.quickSwitches == 0)
    }

    @Test func switchesLessThanAMinuteApartAreCounted() throws {
        // regular → invert at 15, → regular at 35 (20 s later), → invert at 105 (70 s later).
        let light: (Int) -> Double = { t in (10..<30).contains(t) || t >= 100 ? 2 : 300 }
        let totals = try Self.summary((0...300).map { (Double($0), light($0)) })
        #expect(totals.switches == 3)
        #expect(totals.quickSwitches == 1)
        #expect(totals.timeInState == [215, 85, 0])  // invert 20 + 195 s, regular 15 + 70 s
    }

    @Test func aFaultIsTimedFromItsDeadlineToTheRecovery() throws {
        // Valid until 20, failed reads until 60, valid again from 60: fault at 20 + 10.
        let totals = try Self.summary((0...100).map { (Double($0), (21..<60).contains($0) ? nil : 300) })
        #expect(totals.faults == 1)
        #expect(totals.timeFaulted == 30)
        #expect(totals.timeInState == [0, 100, 0])
    }

    @Test func aClearLevelThatIsNeverShownWithinLIsMissed() throws {
        // A 40-second dark level seen only every 20 s: each gap is longer than L, so the evidence
        // is forgotten at every sample and the level is never shown (G1 assumes samples every P).
        let rows: [(Double, Double?)] = [(0, 300), (1, 300), (20, 2), (40, 2), (60, 2)]
        let totals = try Self.summary(rows)
        #expect(totals.longestWait == 0)  // the first level, shown at startup
        #expect(totals.clearLevelsMissed == 1)
        let text = SummaryTable.text([totals], names: ["config"])
        #expect(text.contains("longest wait, clear level to its state  0.00 s (L = 12.0 s)"))
        #expect(text.contains("clear levels not shown within L         1"))
    }

    @Test func theTableHasAColumnPerConfiguration() throws {
        let a = try Self.summary((0...200).map { (Double($0), $0 < 50 ? 300 : 2) })
        let text = SummaryTable.text([a, a], names: ["current", "--compare"])
        let lines = text.split(separator: "\n")
        #expect(
            lines.first?.hasSuffix("current              --compare") == true
                || lines.first?.contains("--compare") == true)
        #expect(lines.contains { $0.hasPrefix("switches per day") && $0.contains("432.0 (1 in all)") })
    }

    @Test func theBrightnessIsAColumnAfterTheOthersAndRoundTrips() throws {
        var record = LightRecord(capacity: 2)
        let row = LightRecord.Row(
            time: 3, lux: 250, filtered: 240, state: .regular, isFaulted: false, override: nil, brightness: 63
        )
        record.append(row)
        record.append(
            LightRecord.Row(
                time: 4, lux: 250, filtered: 240, state: .regular, isFaulted: false, override: nil))
        #expect(record.row(at: 0) == row)
        #expect(record.row(at: 1).brightness == nil)
        #expect(LightRecord.line(row) == "3,250,240.0,regular,0,,63\n")
        #expect(LightRecord.header.hasPrefix(LightRecord.headerWithoutBrightness + ","))
        var reader = TraceReader()
        _ = try reader.row(Array(LightRecord.header.utf8)[...])
        let read = try reader.row(Array(LightRecord.line(row).dropLast().utf8)[...])
        #expect(read?.recorded?.brightness == 63 && read?.recorded?.state == .regular)
        #expect(try reader.row(Array("5,250,,regular,0,,".utf8)[...])?.recorded?.brightness == nil)
        #expect(
            LightRecordTests.refusal(&reader, "6,250,,regular,0,,101")
                == "line 4: brightness '101' is not a percent (0 to 100) or empty: 6,250,,regular,0,,101")
    }

    @Test func anOlderRecordWithoutTheBrightnessStillReadsAsARecord() throws {
        var reader = TraceReader()
        _ = try reader.row(Array(LightRecord.headerWithoutBrightness.utf8)[...])
        let row = try reader.row(Array("1,300,280,regular,0,contrast".utf8)[...])
        #expect(
            row?.recorded
                == TraceReader.Recorded(filtered: 280, state: .regular, isFaulted: false, override: .contrast)
        )
    }
}
