import AmbienceCore
import AmbienceRecord
import AmbienceTestSupport
import Testing

struct ReplayTests {
    func replay(_ lines: [String], format: EventLine.Format = .json) throws(Replay.RowError) -> [String] {
        var replay = Replay(
            configuration: testConfiguration(dwell: 2, latency: 5, faultAfter: 3), format: format)
        var output: [String] = []
        for line in lines { output += try replay.consume(line) }
        return output
    }

    @Test func headerCommentsAndBlankLinesAreSkipped() throws {
        let output = try replay(["# a trace", "seconds,lux", "", "0,300 # office", "  1 , 300 "])
        #expect(output.count == 1)
        #expect(
            output[0].contains(#""state":"regular""#)
                && output[0].hasSuffix(#""time":0,"# + noOverrideNoFault + "\n"))
    }

    @Test(arguments: ["seconds,lux", "\u{FEFF}seconds,lux", "\"t\",\"lux [lx]\"", "time-s , lux.value"])
    func headersOfAnyNamesAreSkipped(header: String) throws {
        let output = try replay([header, "0,300"])
        #expect(output.count == 1)
    }

    @Test func timeIsTheRowsSecondsAsGiven() throws {
        let output = try replay(["12.500,5", "13.5,5", "1.45e1,5000", "15.5,5000", "16.5,5000"])
        #expect(output.first?.hasSuffix(#""time":12.500,"# + noOverrideNoFault + "\n") == true)
        #expect(output.last?.hasSuffix(#""time":16.5,"# + noOverrideNoFault + "\n") == true)
        #expect(output.last?.contains(#""state":"contrast""#) == true)
    }

    @Test func nanAndEmptyLuxAreFailedReads() throws {
        let output = try replay(["0,300", "1,nan", "2,", "3,NaN", "4,", "5,300"])
        #expect(
            output.map { $0.split(separator: ",")[0] } == [
                #"{"event":"change""#, #"{"event":"fault""#, #"{"event":"recovered""#,
            ])
        #expect(
            output[1].hasSuffix(
                #""time":3,"override":null,"override_remaining_s":null,"fault":true,"brightness":null}"#
                    + "\n")
        )
    }

    @Test func plainFormatWritesStateWords() throws {
        #expect(
            try replay(["0,1", "1,1", "2,300", "3,300", "4,300"], format: .plain) == [
                "invert\n", "regular\n",
            ])
    }

    @Test(arguments: [
        ("1;300", "expected two fields"), ("1,2,3", "expected two fields"), ("abc,300", "not a number"),
        ("1,lots", "not a number"), ("1,inf", "not a number"), ("nan,3", "not a number"),
        ("0.5,3", "backwards"),
        ("seconds,lux", "not a number"),
    ])
    func malformedRowNamesItsLine(row: String, message: String) {
        do {
            _ = try replay(["0,300", "1,300", row])
            Issue.record("accepted \(row)")
        } catch {
            #expect(error.line == 3)
            #expect(error.text == row)
            #expect(error.message.contains(message))
        }
    }
}

private let noOverrideNoFault =
    #""override":null,"override_remaining_s":null,"fault":false,"brightness":null}"#
