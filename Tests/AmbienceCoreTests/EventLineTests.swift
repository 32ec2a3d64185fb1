import AmbienceCore
import Testing

struct EventLineTests {
    let change = Event(
        kind: .change, state: .invert, previous: .regular, animated: true, reason: .light, lux: 3.2,
        filtered: 4.1,
        time: 12)

    @Test func jsonLineHasEveryKeyInSpecOrder() {
        let line = EventLine.encode(change, format: .json, time: "\"2026-11-29T21:00:00.123Z\"")
        #expect(
            line
                == #"{"event":"change","state":"invert","previous":"regular","animated":true,"reason":"light","lux":3.2,"filtered":4.1,"time":"2026-11-29T21:00:00.123Z","override":null,"override_remaining_s":null,"fault":false,"brightness":null}"#
                + "\n")
    }

    @Test func missingValuesAreNull() {
        let fault = Event(
            kind: .fault, state: nil, previous: nil, animated: false, reason: nil, lux: nil, filtered: .nan,
            time: 0)
        #expect(
            EventLine.encode(fault, format: .json, time: "0")
                == #"{"event":"fault","state":null,"previous":null,"animated":false,"reason":null,"lux":null,"filtered":null,"time":0,"override":null,"override_remaining_s":null,"fault":false,"brightness":null}"#
                + "\n")
    }

    @Test func overrideAndFaultComeLastWithTheRemainingSecondsAtTheTimeOfWriting() {
        var held = change
        held.override = .invert
        held.overrideUntil = 1812.5
        held.faulted = true
        let suffix =
            #","override":"invert","override_remaining_s":1800.5,"fault":true,"brightness":null}"# + "\n"
        #expect(EventLine.encode(held, format: .json, time: "12")?.hasSuffix(suffix) == true)
        // A `current` line written later counts down from when it is written, never below zero.
        let later = EventLine.encode(held.asCurrent, format: .json, time: "12", now: 1000)
        #expect(later?.contains(#""override_remaining_s":812.5,"#) == true)
        let expired = EventLine.encode(held, format: .json, time: "12", now: 5000)
        #expect(expired?.contains(#""override_remaining_s":0,"#) == true)
        held.overrideUntil = nil
        let open = EventLine.encode(held, format: .json, time: "12")
        #expect(open?.contains(#""override":"invert","override_remaining_s":null,"#) == true)
    }

    @Test func theDisplayComesLastAndOnlyWhenThereIsOne() throws {
        var asleep = change
        asleep.brightness = 20
        asleep.display = .off
        let line = try #require(EventLine.encode(asleep, format: .json, time: "12"))
        #expect(line.hasSuffix(#","fault":false,"brightness":20,"display":"off"}"# + "\n"))
        #expect(try EventLine.decode(String(line.dropLast())).display == .off)
        #expect(EventLine.encode(change, format: .json, time: "12")?.contains("display") == false)
        #expect(try EventLine.decode(#"{"event":"current","display":null}"#).display == nil)
        #expect(throws: EventLine.DecodeError.self) {
            try EventLine.decode(#"{"event":"current","display":"dim"}"#)
        }
    }

    @Test func whatIsAskedOfASessionsOutputsComesAfterTheDisplay() throws {
        var asleep = change
        asleep.display = .on
        asleep.displayAsked = .off
        let line = try #require(EventLine.encode(asleep, format: .json, time: "12"))
        #expect(line.hasSuffix(#","brightness":null,"display":"on","display_asked":"off"}"# + "\n"))
        let decoded = try EventLine.decode(String(line.dropLast()))
        #expect(decoded.display == .on && decoded.displayAsked == .off)
        asleep.displayAsked = nil
        #expect(EventLine.encode(asleep, format: .json, time: "12")?.contains("display_asked") == false)
        #expect(throws: EventLine.DecodeError.self) {
            try EventLine.decode(#"{"event":"current","display_asked":"sleep"}"#)
        }
    }

    @Test func theRoomsColourAndTheWhiteComeLastAndOnlyWithAWhitePoint() throws {
        var warm = change
        warm.display = .on
        warm.whitePoint = WhitePointNews(room: 2712, display: 4000)
        let line = try #require(EventLine.encode(warm, format: .json, time: "12"))
        #expect(line.hasSuffix(#","display":"on","cct":2712,"whitepoint":4000}"# + "\n"))
        let decoded = try EventLine.decode(String(line.dropLast()))
        #expect(decoded.cct == 2712 && decoded.whitePoint == 4000)
        warm.whitePoint = WhitePointNews(room: nil, display: nil)
        #expect(
            EventLine.encode(warm, format: .json, time: "12")?.hasSuffix(
                #""cct":null,"whitepoint":null}"# + "\n") == true)
        warm.whitePoint = nil
        #expect(EventLine.encode(warm, format: .json, time: "12")?.contains("cct") == false)
        for bad in [#""cct":"warm""#, #""whitepoint":4000.5"#, #""whitepoint":900"#] {
            #expect(throws: EventLine.DecodeError.self) {
                try EventLine.decode(#"{"event":"current","# + bad + "}")
            }
        }
    }

    @Test func linesStayFarBelowPipeBuf() {
        var longest = change
        longest.override = .contrast
        longest.overrideUntil = 1.2345678901234567e300
        longest.lux = -1.2345678901234567e-300
        longest.filtered = 1.2345678901234567e300
        longest.whitePoint = WhitePointNews(room: 15_000, display: 15_000)
        let line = EventLine.encode(longest, format: .json, time: "\"2026-11-29T21:00:00.123Z\"")!
        #expect(line.utf8.count < 512)  // POSIX guarantees atomic writes up to 512 bytes
    }

    @Test(arguments: [
        (0.0, "0"), (5, "5"), (3.2, "3.2"), (-0.0, "0"), (0.1, "0.1"), (1e20, "1e+20"), (2.5e-7, "2.5e-07"),
    ])
    func numbersReadBackExactly(value: Double, text: String) {
        #expect(EventLine.number(value) == text)
        #expect(Double(text) == value)
    }

    @Test func plainWritesOnlyStateWordsOfChanges() {
        #expect(EventLine.encode(change, format: .plain, time: "0") == "invert\n")
        #expect(EventLine.encode(change.asCurrent, format: .plain, time: "0") == "invert\n")
        var fault = change
        fault.kind = .fault
        #expect(EventLine.encode(fault, format: .plain, time: "0") == nil)
    }

    @Test func currentIsNeverAnimated() {
        #expect(change.asCurrent.kind == .current)
        #expect(change.asCurrent.animated == false)
        #expect(change.asCurrent.state == change.state)
    }

    @Test(arguments: ["0", "-1", "12.5", "1e3", "1E-3", "0.25e+2", "-0.0"])
    func acceptsJSONNumbers(text: String) {
        #expect(EventLine.isJSONNumber(text))
    }

    @Test(arguments: ["", "01", "+1", "1.", ".5", "1e", "nan", "inf", "0x10", "1 ", "--1", "1e+"])
    func rejectsWhatJSONDoesNotAllow(text: String) {
        #expect(!EventLine.isJSONNumber(text))
    }
}

struct ControlLineTests {
    @Test(arguments: [
        ("override invert", Engine.OverrideCommand.hold(.invert, duration: nil)),
        ("override contrast for 10m", .hold(.contrast, duration: 600)),
        ("  override   regular for 1h30m\r", .hold(.regular, duration: 5400)),
        ("override invert for 90", .hold(.invert, duration: 90)),
        ("override invert for 2.5s", .hold(.invert, duration: 2.5)),
        ("override auto", .auto),
    ])
    func parses(line: String, expected: Engine.OverrideCommand) throws {
        #expect(try ControlLine.parse(line) == expected)
    }

    @Test(arguments: [
        "", "override", "override dark", "override auto now", "override invert for", "override invert for 0",
        "override invert for -5", "override invert for 10x", "override invert during 5m", "set invert",
        "override invert for inf", "override invert for 1h30", "override invert for m",
    ])
    func rejects(line: String) {
        #expect(throws: ControlLine.ParseError.self) { try ControlLine.parse(line) }
    }

    @Test(arguments: [
        ("brightness 40", ControlLine.Request.brightness(.hold(percent: 40, duration: nil))),
        ("brightness 0", .brightness(.hold(percent: 0, duration: nil))),
        ("brightness 100%", .brightness(.hold(percent: 100, duration: nil))),
        (" brightness 40 for 2h\r", .brightness(.hold(percent: 40, duration: 7200))),
        ("brightness auto", .brightness(.auto)),
        ("override invert", .override(.hold(.invert, duration: nil))),
        ("display off", .display(.hold(.off, duration: nil))),
        ("display on for 1h30m", .display(.hold(.on, duration: 5400))),
        ("display auto", .display(.auto)),
    ])
    func brightnessLinesAreRequestsOfTheirOwn(line: String, expected: ControlLine.Request) throws {
        #expect(try ControlLine.request(line) == expected)
    }

    @Test(arguments: [
        ("brightness", "'brightness' needs a percent or 'auto'"),
        ("brightness 101", "'101' is not a brightness: use a whole percent 0 to 100, or auto"),
        ("brightness -5", "'-5' is not a brightness: use a whole percent 0 to 100, or auto"),
        ("brightness 40.5", "'40.5' is not a brightness: use a whole percent 0 to 100, or auto"),
        ("brightness auto now", "'brightness auto' takes nothing after it"),
        ("brightness 40 during 2h", "expected 'brightness 40 [for DURATION]'"),
        ("brightness 40 for 366d", "'366d' is longer than the longest override, 365d (a year)"),
        ("brightness 40 for 0", "'0' is not a duration: use e.g. 90, 45s, 10m, 2h, 1h30m"),
        // A bad value is said before a bad duration after it.
        ("brightness 101 during 2h", "'101' is not a brightness: use a whole percent 0 to 100, or auto"),
        ("display maybe for", "'maybe' is not a display power: use on, off or auto"),
        ("display off for", "expected 'display off [for DURATION]'"),
        ("override dim for 0", "unknown state 'dim': use invert, regular, contrast or auto"),
        ("override invert for 0 now", "expected 'override invert [for DURATION]'"),
    ])
    func badBrightnessLinesSayWhy(line: String, message: String) {
        do {
            _ = try ControlLine.request(line)
            Issue.record("accepted '\(line)'")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test(arguments: [
        ("365d", 31_536_000.0), ("31536000", 31_536_000), ("8760h", 31_536_000),
        ("364d23h59m59s", 31_535_999),
    ])
    func takesDurationsUpToAYear(text: String, seconds: Double) throws {
        #expect(try ControlLine.parse("override invert for \(text)") == .hold(.invert, duration: seconds))
    }

    /// A second over the bound, and values past what Int64 seconds or nanoseconds hold (the last
    /// is Int64.max + 1 seconds; 99999999999999999d made the daemon report 8.64e+21 s left).
    @Test(arguments: [
        "365d1s", "31536001", "366d", "8761h", "99999999999999999d", "9223372036854775808", "9.3e18",
        "1e300",
    ])
    func refusesDurationsOverAYear(text: String) {
        do {
            _ = try ControlLine.parse("override contrast for \(text)")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message == "'\(text)' is longer than the longest override, 365d (a year)")
        }
    }
}
