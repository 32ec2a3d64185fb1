import AmbienceMQTT
import JSON
import Testing

struct TopicTests {
    let topics = Topics(prefix: "ambience", deviceID: "a1b2c3", discoveryPrefix: "homeassistant")

    @Test func everyTopicOfOneKioskIsUnderPrefixAndID() {
        #expect(topics.status == "ambience/a1b2c3/status")
        #expect(topics.state == "ambience/a1b2c3/state")
        #expect(topics.overrideCommand == "ambience/a1b2c3/override/set")
        #expect(topics.groupOverrideCommand == "ambience/all/override/set")
        #expect(topics.homeAssistantStatus == "homeassistant/status")
        #expect(topics.deviceDiscovery == "homeassistant/device/ambience_a1b2c3/config")
        #expect(
            topics.entityDiscovery(platform: "sensor", objectID: "lux")
                == "homeassistant/sensor/ambience_a1b2c3/lux/config")
    }
}

struct DeviceIDTests {
    @Test func derivedFromTheMachineIDStablyAndNotEqualToIt() {
        let machine = "4f1c9d2e8a7b4c3d9e0f1a2b3c4d5e6f\n"
        let id = DeviceID.derived(fromMachineID: machine)
        #expect(id == DeviceID.derived(fromMachineID: machine))
        #expect(id?.count == 12)
        #expect(id?.allSatisfy { $0.isHexDigit } == true)
        #expect(machine.hasPrefix(id ?? "-") == false)
        #expect(id != DeviceID.derived(fromMachineID: "4f1c9d2e8a7b4c3d9e0f1a2b3c4d5e6e"))
    }

    @Test(arguments: ["", "\n", "short"])
    func noIDFromAnEmptyOrTruncatedMachineID(text: String) {
        #expect(DeviceID.derived(fromMachineID: text) == nil)
    }
}

struct BackoffTests {
    @Test func doublesFromBaseToCapWithinTheUpperHalf() {
        var backoff = Backoff(base: 1, cap: 60)
        let lowest = (0..<8).map { _ in backoff.nextDelay(random: { 0 }) }
        #expect(lowest == [0.5, 1, 2, 4, 8, 16, 30, 30])
        var high = Backoff(base: 1, cap: 60)
        let highest = (0..<8).map { _ in high.nextDelay(random: { 0.999 }) }
        #expect(zip(highest, [1.0, 2, 4, 8, 16, 32, 60, 60]).allSatisfy { $0 < $1 && $0 > $1 * 0.99 })
    }

    @Test func aHeldConnectionStartsItAgain() {
        var backoff = Backoff(base: 2, cap: 60)
        _ = backoff.nextDelay(random: { 0 })
        _ = backoff.nextDelay(random: { 0 })
        backoff.reset()
        #expect(backoff.nextDelay(random: { 0 }) == 1)
    }

    @Test func manyFailuresNeverOverflow() {
        var backoff = Backoff(base: 1, cap: 60)
        for _ in 0..<200 { #expect(backoff.nextDelay(random: { 0.5 }) <= 60) }
    }
}

struct OverridePayloadTests {
    @Test(arguments: [
        ("auto", "override auto"), ("invert", "override invert"),
        ("contrast for 30m", "override contrast for 30m"),
        ("regular  for 1h30m", "override regular for 1h30m"), ("invert for 90", "override invert for 90"),
    ])
    func commandsBecomeControlLines(payload: String, line: String) {
        #expect(OverridePayload.controlLine(Array(payload.utf8)) == .success(line))
    }

    @Test(arguments: [
        "", "dark", "invert for", "invert for 0", "auto for 5m", "override invert", "invert\nauto",
        String(repeating: "a", count: 65),
    ])
    func malformedCommandsAreRejected(payload: String) {
        guard case .failure(let rejection) = OverridePayload.controlLine(Array(payload.utf8)) else {
            Issue.record("accepted '\(payload)'")
            return
        }
        #expect(!rejection.message.isEmpty)
    }

    /// The same bound and words as the CLI and the control pipe, the parser being theirs.
    @Test func durationsOverAYearAreRejectedAsEverywhere() {
        #expect(
            OverridePayload.controlLine(Array("invert for 365d".utf8)) == .success("override invert for 365d")
        )
        guard
            case .failure(let rejection) = OverridePayload.controlLine(
                Array("invert for 99999999999999999d".utf8))
        else {
            Issue.record("accepted a duration over a year")
            return
        }
        #expect(
            rejection.message == "'99999999999999999d' is longer than the longest override, 365d (a year)")
    }

    /// What Home Assistant's number and button send, and what `ambience brightness` takes.
    @Test(arguments: [
        ("40", "brightness 40"), ("0", "brightness 0"), ("100", "brightness 100"), ("40%", "brightness 40%"),
        ("auto", "brightness auto"), ("40  for 2h", "brightness 40 for 2h"),
    ])
    func brightnessCommandsBecomeControlLines(payload: String, line: String) {
        #expect(OverridePayload.controlLine(Array(payload.utf8), kind: .brightness) == .success(line))
    }

    @Test(arguments: ["", "101", "-1", "40.5", "bright", "invert", "40 for", "auto for 5m", "brightness 40"])
    func malformedBrightnessCommandsAreRejected(payload: String) {
        guard
            case .failure(let rejection) = OverridePayload.controlLine(Array(payload.utf8), kind: .brightness)
        else {
            Issue.record("accepted '\(payload)'")
            return
        }
        #expect(!rejection.message.isEmpty)
    }

    @Test func invalidUTF8IsRejectedAndLoggedPrintably() {
        #expect((try? OverridePayload.controlLine([0xFF, 0x41]).get()) == nil)
        #expect(OverridePayload.quoted(Array("a\u{1B}[2Jb".utf8)) == "'a?[2Jb'")
        #expect(OverridePayload.quoted(Array(repeating: 0x61, count: 100)).hasSuffix("…'"))
    }
}

struct KioskStatusTests {
    static let held =
        #"{"event":"change","state":"invert","previous":"regular","animated":true,"reason":"override","lux":3.25,"filtered":4,"time":"2026-11-29T21:00:00.123Z","override":"invert","override_remaining_s":1800,"fault":false,"brightness":null}"#

    @Test func anEventLineBecomesTheStatePayload() {
        var status = KioskStatus()
        let consumed = status.consume(Self.held, now: 100)
        #expect(consumed)
        #expect(
            status.payload(now: 100)
                == #"{"state":"invert","lux":3.25,"filtered":4,"override":"invert","override_remaining_s":1800,"fault":false,"brightness":null}"#
        )
    }

    @Test func theOverrideCountsDownOnTheMonotonicClock() {
        var status = KioskStatus()
        _ = status.consume(Self.held, now: 100)
        #expect(status.payload(now: 160).contains(#""override_remaining_s":1740,"#))
        #expect(status.payload(now: 5000).contains(#""override_remaining_s":0,"#))
    }

    @Test func aFaultKeepsTheLastReadingAndSaysSo() {
        var status = KioskStatus()
        _ = status.consume(Self.held, now: 0)
        let fault =
            #"{"event":"fault","state":"invert","previous":null,"animated":false,"reason":null,"lux":null,"filtered":4,"time":"x","override":null,"override_remaining_s":null,"fault":true,"brightness":null}"#
        let consumed = status.consume(fault, now: 1)
        #expect(consumed)
        #expect(
            status.payload(now: 1)
                == #"{"state":"invert","lux":3.25,"filtered":4,"override":null,"override_remaining_s":null,"fault":true,"brightness":null}"#
        )
    }

    @Test func linesOfAnOlderDaemonStillGiveStateAndLux() {
        var status = KioskStatus()
        let old =
            #"{"event":"current","state":"regular","previous":null,"animated":false,"reason":"startup","lux":120,"filtered":118,"time":"x"}"#
        let consumed = status.consume(old, now: 0)
        #expect(consumed)
        #expect(
            status.payload(now: 0).hasPrefix(#"{"state":"regular","lux":120,"filtered":118,"override":null"#))
    }

    @Test(arguments: ["", "regular", "{", #"{"event":"party","state":"invert"}"#, "[1,2]"])
    func whatIsNotAnEventLineChangesNothing(line: String) {
        var status = KioskStatus()
        let consumed = status.consume(line, now: 0)
        #expect(!consumed)
        #expect(status == KioskStatus())
    }
}
