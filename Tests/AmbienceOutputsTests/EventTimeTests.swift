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

    /// An event's monotonic time moves onto the wall clock by the two clocks' offset now.
    @Test func eventTimesMoveOntoTheWallClock() {
        let clock = ManualClock(now: 500)
        let render = EventTime.wallClock(monotonic: clock, wall: { 1_795_986_000.123 })
        #expect(render(490) == "\"2026-11-29T20:59:50.123Z\"")  // ten seconds ago
        #expect(render(500) == "\"2026-11-29T21:00:00.123Z\"")
    }
}
