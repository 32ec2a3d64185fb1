import AmbienceCore
import AmbienceSystem
import Testing

@testable import AmbienceOutputs

@Suite struct EventTimeTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_795_986_000.123, "2026-11-29T21:00:00.123Z"),
        (951_782_400.9994, "2000-02-29T00:00:00.999Z"),
        (951_782_399.9996, "2000-02-29T00:00:00.000Z"),
        (-0.25, "1969-12-31T23:59:59.750Z"),
        (4_102_444_799.5, "2099-12-31T23:59:59.500Z"),
    ])
    func wallClockTimesAreISO8601WithMilliseconds(seconds: Double, text: String) {
        #expect(WallClock.iso8601(seconds) == text)
    }

    /// The renderer reads the real wall clock, so the test brackets it: the rendered time lies
    /// between the wall clock read just before and just after, each less the ten seconds. Both
    /// ends are rounded as the renderer rounds, and these ISO 8601 texts (one width, one zone)
    /// order as their times do, so the check holds however long the machine pauses between
    /// the three reads.
    @Test func eventTimesMoveOntoTheWallClock() {
        let clock = ManualClock(now: 500)
        let render = EventTime.wallClock(monotonic: clock)
        let before = WallClock.iso8601(WallClock.now - 10)
        let rendered = render(490)  // ten seconds ago
        let after = WallClock.iso8601(WallClock.now - 10)
        #expect(rendered.first == "\"" && rendered.last == "\"")
        let text = String(rendered.dropFirst().dropLast())
        #expect(before <= text && text <= after, "\(before) ≤ \(text) ≤ \(after)")
    }
}
