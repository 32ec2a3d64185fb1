import AmbienceCore
import Testing

/// `EventLine.decode`, the one reader of event lines, against `EventLine.encode`, their one writer.
@Suite struct EventLineDecodingTests {
    @Test func everyKeyReadsBack() throws {
        let line =
            #"{"event":"change","state":"invert","previous":"regular","animated":true,"reason":"override","lux":3.25,"filtered":4,"time":"2026-11-29T21:00:00.123Z","override":"invert","override_remaining_s":1800.5,"fault":true}"#
        let decoded = try EventLine.decode(line)
        #expect(decoded.format == .json)
        #expect(decoded.event == "change")
        #expect(decoded.kind == .change)
        #expect(decoded.state == .invert)
        #expect(decoded.previous == .regular)
        #expect(decoded.animated == true)
        #expect(decoded.reason == .override)
        #expect(decoded.lux == 3.25)
        #expect(decoded.filtered == 4)
        #expect(decoded.time == #""2026-11-29T21:00:00.123Z""#)
        #expect(decoded.override == EventLine.Override(state: .invert, remaining: 1800.5))
        #expect(decoded.fault == true)
        #expect(decoded.text == line)
    }

    @Test func whatEncodeWritesDecodeReads() throws {
        let held = Event(
            kind: .current, state: .contrast, previous: nil, animated: false, reason: .light, lux: 1e-7,
            filtered: 120_000.5, time: 12, override: .contrast, overrideUntil: 72, faulted: false,
            brightness: 0)
        let bright = Event(
            kind: .change, state: .regular, previous: .invert, animated: true, reason: .light, lux: 300,
            filtered: 280, time: 3, brightness: 100)
        let fault = Event(
            kind: .fault, state: nil, previous: nil, animated: false, reason: nil, lux: nil, filtered: .nan,
            time: 0,
            faulted: true)
        for (event, time) in [(held, "12.5"), (fault, #""2026-11-29T21:00:00.123Z""#), (bright, "3")] {
            let line = try #require(EventLine.encode(event, format: .json, time: time))
            let decoded = try EventLine.decode(Array(line.utf8.dropLast()))
            #expect(decoded.kind == event.kind)
            #expect(decoded.state == event.state)
            #expect(decoded.previous == event.previous)
            #expect(decoded.animated == event.animated)
            #expect(decoded.reason == event.reason)
            #expect(decoded.lux == event.lux)
            #expect(decoded.filtered == (event.filtered?.isNaN == true ? nil : event.filtered))
            #expect(decoded.time == time)
            #expect(decoded.override?.state == event.override)
            #expect(decoded.override?.remaining == event.overrideRemaining(at: event.time))
            #expect(decoded.fault == event.faulted)
            #expect(decoded.brightness == event.brightness)
        }
    }

    @Test func brightnessIsAWholePercentAfterEveryOtherKey() throws {
        let line = #"{"event":"current","state":"regular","fault":false,"brightness":40}"#
        #expect(try EventLine.decode(line).brightness == 40)
        #expect(try EventLine.decode(#"{"event":"current","brightness":null}"#).brightness == nil)
        for bad in ["40.5", "-1", "101", "\"40\""] {
            #expect(throws: EventLine.DecodeError.self) {
                try EventLine.decode(#"{"event":"current","brightness":"# + bad + "}")
            }
        }
    }

    @Test func nullsAndKeysAnOlderDaemonLeftOutReadAsNil() throws {
        let old = try EventLine.decode(
            #"{"event":"current","state":"regular","previous":null,"animated":false,"reason":"startup","lux":120,"filtered":118,"time":0}"#
        )
        #expect(old.state == .regular && old.previous == nil && old.lux == 120 && old.time == "0")
        #expect(old.override == nil)
        #expect(old.fault == nil)
        #expect(old.brightness == nil)
        let none = try EventLine.decode(#"{"event":"recovered","override":null,"override_remaining_s":null}"#)
        #expect(none.override == EventLine.Override(state: nil, remaining: nil))
        #expect(none.state == nil && none.animated == nil && none.time == nil)
    }

    @Test func aStateWordIsAPlainChange() throws {
        let decoded = try EventLine.decode(Array("  contrast\r".utf8))
        #expect(decoded.format == .plain)
        #expect(decoded.kind == .change)
        #expect(decoded.state == .contrast)
        #expect(decoded.text == "contrast")
    }

    @Test func anEventThisReaderDoesNotKnowIsReadWithoutAKind() throws {
        let decoded = try EventLine.decode(#"{"event":"party","state":"invert"}"#)
        #expect(decoded.event == "party")
        #expect(decoded.kind == nil)
        #expect(decoded.state == .invert)
    }

    @Test(arguments: [
        ("", "an empty line"),
        (" \t", "an empty line"),
        ("garbage", "neither a JSON object nor a state word"),
        ("[1,2]", "neither a JSON object nor a state word"),
        ("{\"event\":\"chan\rge\"}", "a control character in the line"),
        ("{\"event\":\"change\"}\u{0}", "a control character in the line"),
        ("{\"event\":\"change\"", "JSON at byte 17: the object is not closed"),
        ("{\"state\":\"invert\"}", "no \"event\" key"),
        ("{\"event\":\"\"}", "\"event\" is not a lowercase word of at most 31 letters"),
        ("{\"event\":\"Change\"}", "\"event\" is not a lowercase word of at most 31 letters"),
        ("{\"event\":1}", "\"event\" is not a lowercase word of at most 31 letters"),
        ("{\"event\":\"change\",\"state\":\"purple\"}", "\"state\": 'purple' is not one of its words"),
        ("{\"event\":\"change\",\"previous\":3}", "\"previous\" is not a string"),
        ("{\"event\":\"change\",\"reason\":\"whim\"}", "\"reason\": 'whim' is not one of its words"),
        ("{\"event\":\"change\",\"animated\":\"yes\"}", "\"animated\" is not true or false"),
        ("{\"event\":\"change\",\"lux\":\"3.2\"}", "\"lux\" is not a number"),
        ("{\"event\":\"change\",\"filtered\":true}", "\"filtered\" is not a number"),
        ("{\"event\":\"change\",\"time\":[]}", "\"time\" is neither a string nor a number"),
        ("{\"event\":\"change\",\"override\":\"auto\"}", "\"override\": 'auto' is not one of its words"),
        (
            "{\"event\":\"change\",\"override_remaining_s\":\"1h\"}",
            "\"override_remaining_s\" is not a number"
        ),
        ("{\"event\":\"change\",\"fault\":0}", "\"fault\" is not true or false"),
    ])
    func malformedLinesAreRejectedWithAReason(line: String, reason: String) {
        #expect(throws: EventLine.DecodeError(reason)) { try EventLine.decode(line) }
    }
}
