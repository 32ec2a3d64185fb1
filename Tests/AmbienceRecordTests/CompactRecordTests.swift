import AmbienceCore
import AmbienceRecord
import Testing

struct CompactRecordTests {
    static let parameters = CompactRecord.Parameters(timeConstant: 2, interval: 0.1)

    /// The file `rows` make: header, parameters line, the encoder's lines.
    static func text(_ rows: [LightRecord.Row], parameters: CompactRecord.Parameters = parameters) -> String {
        var encoder = CompactRecord.Encoder(parameters: parameters)
        var text = CompactRecord.header + "\n" + parameters.line(startingRun: true)
        for row in rows { text += encoder.line(row) }
        return text + encoder.finish()
    }

    /// The rows `text` reads back as, through the reader every command uses.
    static func read(_ text: String) throws -> [TraceReader.Row] {
        var reader = TraceReader()
        var rows: [TraceReader.Row] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            try reader.rows(Array(line.utf8)[...]) { rows.append($0) }
        }
        return rows
    }

    static func recorded(_ row: TraceReader.Row) -> LightRecord.Row {
        let columns = row.recorded
        return LightRecord.Row(
            time: row.time, lux: row.lux, filtered: columns?.filtered, state: columns?.state,
            isFaulted: columns?.isFaulted ?? false, override: columns?.override,
            brightness: columns?.brightness)
    }

    /// Rows as the daemon keeps them: the filtered value the engine's filter gives, as a Float.
    static func daemonRows(count: Int, start: Double = 12.345, lux: (Int) -> Double?) -> [LightRecord.Row] {
        var filter = EMAFilter(timeConstant: 2)
        return (0..<count).map { index in
            let time = CompactRecord.sampleTime(start + Double(index) * 0.1)
            let value = lux(index)
            if let value { filter.update(time: time, lux: value) }
            return LightRecord.Row(
                time: time, lux: value, filtered: filter.value.map { Double(Float($0)) }, state: .regular,
                isFaulted: false, override: nil, brightness: 40)
        }
    }

    static func expectRoundTrip(_ rows: [LightRecord.Row], parameters: CompactRecord.Parameters = parameters)
        throws
    {
        let back = try read(text(rows, parameters: parameters))
        #expect(back.count == rows.count)
        for (row, read) in zip(rows, back) {
            #expect(Self.recorded(read) == row)
            #expect(read.time.bitPattern == row.time.bitPattern)
            #expect(read.lux?.bitPattern == row.lux?.bitPattern)
        }
    }

    @Test func rowsOnTheGridWithSteadyLightAreOneRun() throws {
        let rows = Self.daemonRows(count: 1000) { _ in 300 }
        let text = Self.text(rows)
        // The first row in full, the rest predicted: time, lux, the filter, the columns.
        #expect(text == "ambience-record 2\n!2,0.1\n=300^12345%r/40\n*999\n")
        try Self.expectRoundTrip(rows)
    }

    @Test func aRunLongerThanTheLongestIsSeveralLines() throws {
        let rows = Self.daemonRows(count: 2 * CompactRecord.longestRun + 2) { _ in 300 }
        #expect(Self.text(rows) == "ambience-record 2\n!2,0.1\n=300^12345%r/40\n*100000\n*100000\n\n")
        try Self.expectRoundTrip(rows)
    }

    @Test func exactDoublesTimesOffTheGridAndNegativeZeroRoundTrip() throws {
        let odd = 0.1 + 0.2
        let rows = [
            LightRecord.Row(
                time: 1e-300, lux: 1.0 / 3, filtered: nil, state: nil, isFaulted: false, override: nil),
            LightRecord.Row(
                time: odd, lux: 5e-324, filtered: Double(Float(0.1)), state: .invert, isFaulted: false,
                override: nil),
            LightRecord.Row(
                time: 1e6 + 0.1, lux: -0.0, filtered: 0, state: .invert, isFaulted: false, override: nil),
            LightRecord.Row(
                time: 1e6 + 0.1, lux: 0.0, filtered: 0, state: .invert, isFaulted: false, override: nil),
            LightRecord.Row(
                time: 123_456_789.123, lux: 1.7976931348623157e308, filtered: nil, state: .invert,
                isFaulted: false, override: nil),
        ]
        let back = try Self.read(Self.text(rows))
        // The filtered value here is not the filter's: written, and read back as given.
        #expect(back.map(Self.recorded) == rows)
        #expect(back[2].lux?.sign == .minus && back[3].lux?.sign == .plus)
        #expect(back.map(\.time.bitPattern) == rows.map(\.time.bitPattern))
    }

    @Test func failedReadsAreNAndHoldTheFilter() throws {
        let rows = Self.daemonRows(count: 300) { index in
            (100..<150).contains(index) ? nil : 200 + Double(index % 5)
        }
        let text = Self.text(rows)
        #expect(text.contains("\n?\n"))
        try Self.expectRoundTrip(rows)
        let back = try Self.read(text)
        #expect(back[120].lux == nil && back[120].recorded?.filtered == back[99].recorded?.filtered)
    }

    @Test func recentValuesAreBackReferencesAndEvictedOnesAreWrittenAgain() throws {
        // Values cycling among 40: each a one-character reference after its first time.
        let cycling = Self.daemonRows(count: 4000) { Double(100 + ($0 * 7) % 40) }
        let text = Self.text(cycling)
        #expect(text.utf8.count < 4000 * 2 + 40 * 20)
        try Self.expectRoundTrip(cycling)
        // 5000 distinct values, then the first again: out of the table of 4096, written in full.
        let distinct = Self.daemonRows(count: 5002) { $0 == 5001 ? 1000 : 1000 + Double($0) / 8 }
        let distinctText = Self.text(distinct)
        #expect(distinctText.hasSuffix("=1000\n"))
        try Self.expectRoundTrip(distinct)
        // Within the table's reach, the same value is a reference (its rank in base 62).
        let near = Self.daemonRows(count: 4002) { $0 == 4001 ? 1000 : 1000 + Double($0) / 8 }
        let nearText = Self.text(near)
        #expect(!nearText.hasSuffix("=1000\n"))
        try Self.expectRoundTrip(near)
    }

    @Test func everyColumnsChangeIsWrittenAndReadBack() throws {
        var rows = Self.daemonRows(count: 60) { _ in 10 }
        rows[10].state = .invert
        rows[20].isFaulted = true
        rows[21].isFaulted = false
        rows[30].override = .contrast
        rows[40].override = nil
        rows[45].brightness = nil
        rows[46].brightness = 100
        // A late sample; the grid goes on from it.
        for index in 50..<60 { rows[index].time = CompactRecord.sampleTime(rows[index].time + 0.25) }
        rows[55].filtered = 7.5  // not the filter's value: written, and the filter follows it
        rows[56].state = nil
        let text = Self.text(rows)
        for token in ["%i", ";1", ";0", ":c", ":_", "/\n", "/100", "@250", "~7.5", "%_"] {
            #expect(text.contains(token), "\(token)")
        }
        try Self.expectRoundTrip(rows)
    }

    @Test func aTimeOffTheMillisecondGridIsWrittenInFull() throws {
        let rows = [
            LightRecord.Row(
                time: 604.2, lux: 2, filtered: 2, state: .invert, isFaulted: false, override: nil),
            LightRecord.Row(
                time: 604.3000000000001, lux: 2, filtered: 2, state: .invert, isFaulted: false, override: nil),
        ]
        #expect(Self.text(rows).hasSuffix("\n'604.3000000000001\n"))
        try Self.expectRoundTrip(rows)
    }

    @Test func theSampleTimeIsTheMillisecondAtOrAfterTheClock() {
        #expect(CompactRecord.sampleTime(12.3450015) == 12.346)
        // Within a microsecond of a millisecond is on it.
        #expect(CompactRecord.sampleTime(12.3450004) == 12.345)
        #expect(CompactRecord.sampleTime(12.3459) == 12.346)
        // The grid's own rounding is not a millisecond: 0.1 * 3 is 0.30000000000000004.
        #expect(CompactRecord.sampleTime(0.1 * 3) == 0.3)
        #expect(CompactRecord.sampleTime(0.7) == 0.7)
        #expect(CompactRecord.sampleTime(86_400 * 365 + 0.1 * 7) == 31_536_000.7)
    }

    @Test func aParametersLineStartsAfreshAndChangesThePredictions() throws {
        let first = Self.daemonRows(count: 50) { _ in 300 }
        let slower = CompactRecord.Parameters(timeConstant: 4, interval: 1)
        var second: [LightRecord.Row] = []
        var filter = EMAFilter(timeConstant: 4)
        for index in 0..<50 {
            let time = 20 + Double(index)
            filter.update(time: time, lux: 50)
            second.append(
                LightRecord.Row(
                    time: time, lux: 50, filtered: filter.value.map { Double(Float($0)) }, state: .invert,
                    isFaulted: false, override: nil))
        }
        var text = Self.text(first)
        var encoder = CompactRecord.Encoder(parameters: slower)
        text += slower.line(startingRun: false)
        for row in second { text += encoder.line(row) }
        text += encoder.finish()
        #expect(text.hasSuffix("+4,1\n=50^20000%i\n*49\n"))
        let back = try Self.read(text)
        #expect(back.map(Self.recorded) == first + second)
    }

    @Test func aRunStartsAtEveryBangLineAndItsTimesMayStartAgain() throws {
        let text = CompactRecord.header + "\n!2,0.1\n=300^5000\n*3\n+2,0.1\n^5400\n!2,0.1\n^20\n\n"
        let rows = try Self.read(text)
        #expect(rows.map(\.time) == [5, 5.1, 5.2, 5.3, 5.4, 0.02, 0.12])
        #expect(rows.map(\.startsRun) == [true, false, false, false, false, true, false])
    }

    @Test func malformedLinesAreErrorsWithTheirLineNumbers() {
        let cases: [(String, String)] = [
            ("=300^100", "line 2: a row before the parameters line (!TAU,INTERVAL): =300^100"),
            ("!2", "line 2: parameters are !TAU,INTERVAL or +TAU,INTERVAL, two positive numbers: !2"),
            ("!2,0.1\n=300^100\n+2,1\n^99", "line 5: time goes backwards (previous row: 0.1 s): ^99"),
            ("!2,0.1\n=300", "line 3: the first row after the parameters has no time: =300"),
            ("!2,0.1\n=300^100\nZZ", "line 4: lux back-reference 'ZZ' beyond the table: ZZ"),
            ("!2,0.1\n=300^100\n@-200", "line 4: time goes backwards (previous row: 0.1 s): @-200"),
            ("!2,0.1\n=300^100\n%x", "line 4: state token '%x' is malformed: %x"),
            ("!2,0.1\n=300^100\n;2", "line 4: fault token ';2' is malformed: ;2"),
            ("!2,0.1\n=300^100\n/101", "line 4: brightness token '/101' is malformed: /101"),
            ("!2,0.1\n=300^100\n*", "line 4: a run is * and a count of 1 to 100000 rows: *"),
            ("!2,0.1\n=300^100\n*100001", "line 4: a run is * and a count of 1 to 100000 rows: *100001"),
            ("!2,0.1\n=300^100\n=x", "line 4: lux token '=x' is malformed: =x"),
            ("!2,0.1\n=300^100\n=1?", "line 4: lux token '?' is malformed: =1?"),
        ]
        for (body, message) in cases {
            var failure: String?
            do {
                _ = try Self.read(CompactRecord.header + "\n" + body + "\n")
            } catch {
                failure = "\(error)"
            }
            #expect(failure == message, "\(body)")
        }
    }

    @Test func aCSVRecordStillReadsAsBefore() throws {
        let rows = Self.daemonRows(count: 20) { Double($0 % 3) + 100 }
        let csv = LightRecord.header + "\n" + rows.map(LightRecord.line).joined()
        let fromCSV = try Self.read(csv)
        let fromCompact = try Self.read(Self.text(rows))
        #expect(fromCSV.map(\.time) == fromCompact.map(\.time))
        #expect(fromCSV.map(\.lux) == fromCompact.map(\.lux))
        #expect(fromCSV.map(\.recorded?.state) == fromCompact.map(\.recorded?.state))
        #expect(fromCSV[3].timeText == "12.645" && fromCompact[3].timeText.isEmpty)
    }

    @Test func replayGivesTheSameEventsFromEitherFormat() throws {
        // Light crossing both bands, failed reads (a fault and its recovery), an override.
        var rows = Self.daemonRows(count: 3000) { index in
            if (1200..<1300).contains(index) { return nil }
            let level = [5.0, 300, 8000, 300, 30][index / 600 % 5]
            return level + Double(index % 9)
        }
        for index in 2000..<2200 { rows[index].override = .contrast }
        let csv = LightRecord.header + "\n" + rows.map(LightRecord.line).joined()
        func events(_ text: String) throws -> [String] {
            var replay = Replay(configuration: .indoorKiosk, format: .json)
            var lines: [String] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                lines += try replay.consume(Array(line.utf8)[...])
            }
            return lines
        }
        let fromCSV = try events(csv)
        #expect(fromCSV.count >= 8)
        #expect(try events(Self.text(rows)) == fromCSV)
    }
}
