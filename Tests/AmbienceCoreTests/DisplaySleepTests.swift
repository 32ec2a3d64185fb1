import AmbienceCore
import Testing

/// A room's light at 10 Hz through the theme engine's moving average (τ 2 s) and a display
/// sleep engine; `touches` are times someone touches the screen, `minuteOfDay` the local clock.
private struct Room {
    var engine: DisplaySleepEngine
    var filter = EMAFilter(timeConstant: 2)
    var time = 0.0
    /// (time, power) at each change of the output.
    var changes: [(Double, DisplayPower)] = []

    init(_ configuration: DisplaySleepConfiguration = .darkRoom) {
        engine = DisplaySleepEngine(configuration: configuration)
    }

    /// Samples every 0.1 s for `seconds`, the light given by `lux` (seconds since this call).
    mutating func run(
        _ seconds: Double, minuteOfDay: ((Double) -> Int)? = nil, lux: (Double) -> Double?
    ) {
        let start = time
        let steps = Int((seconds * 10).rounded())
        for _ in 0..<steps {
            time = ((time + 0.1) * 10).rounded() / 10
            let reading = lux(time - start)
            let filtered = reading.map { filter.update(time: time, lux: $0) } ?? filter.value
            let before = engine.output
            engine.ingest(lux: reading, filtered: filtered, at: time, minuteOfDay: minuteOfDay?(time))
            if engine.output != before { changes.append((time, engine.output)) }
        }
    }

    mutating func run(_ seconds: Double, at lux: Double?) { run(seconds) { _ in lux } }

    mutating func touch() {
        let before = engine.output
        engine.touched(at: time)
        if engine.output != before { changes.append((time, engine.output)) }
    }

    mutating func apply(_ command: DisplaySleepEngine.Command) {
        let before = engine.output
        engine.apply(command, at: time)
        if engine.output != before { changes.append((time, engine.output)) }
    }
}

struct DisplaySleepEngineTests {
    @Test func aRoomThatStaysDarkSleepsWithinSleepAfterPlusAnInterval() {
        var room = Room()
        room.run(60, at: 300)
        room.run(1200, at: 0)
        #expect(room.changes.count == 1)
        let (time, power) = room.changes[0]
        #expect(power == .off)
        #expect(room.engine.reason == .dark)
        // The moving average falls below 3 lx τ·ln(300/3) ≈ 9.2 s after the light goes out at
        // 60 s; the display sleeps sleepAfter later, seen at a sample up to P after that.
        let smoothedBelow = 60 + 2 * 4.6052
        let bound = DisplaySleepConfiguration.darkRoom.sleepBound(sampleInterval: 0.1)
        #expect(time >= smoothedBelow + 600 - 0.1)
        #expect(time <= smoothedBelow + bound + 0.1)
    }

    @Test func theLightComingOnWakesItWithinWakeAfterPlusAnInterval() {
        var room = Room()
        room.run(700, at: 0)
        #expect(room.engine.output == .off)
        room.run(10, at: 200)
        #expect(room.changes.count == 2)
        let (time, power) = room.changes[1]
        #expect(power == .on)
        #expect(room.engine.reason == .light)
        #expect(time - 700 <= DisplaySleepConfiguration.darkRoom.wakeBound(sampleInterval: 0.1) + 1e-9)
        #expect(time - 700 >= 2)
    }

    @Test func aShadowOrAFingerOverTheSensorNeverBlanksIt() {
        var room = Room()
        room.run(60, at: 300)
        // A finger over the sensor for a minute at a time, ten times, in a lit room.
        for _ in 0..<10 {
            room.run(60, at: 0)
            room.run(5, at: 300)
        }
        #expect(room.changes.isEmpty)
        #expect(room.engine.output == .on)
    }

    @Test func aFlickerOrPassingHeadlightsNeverWakeIt() {
        var room = Room()
        room.run(700, at: 0.5)
        #expect(room.engine.output == .off)
        // A lamp flickering on and off every half second for a minute; a car's lights for 1.5 s.
        room.run(60) { t in Int(t * 2) % 2 == 0 ? 200 : 0.5 }
        room.run(5, at: 0.5)
        room.run(1.5, at: 80)
        room.run(30, at: 0.5)
        #expect(room.changes.count == 1)
        #expect(room.engine.output == .off)
    }

    @Test func lightBetweenTheTwoLevelsMovesNothing() {
        var room = Room()
        room.run(700, at: 0)
        #expect(room.engine.output == .off)
        room.run(600, at: 6)  // above sleep_below, below wake_above: asleep it stays
        #expect(room.engine.output == .off)
        room.run(10, at: 50)
        #expect(room.engine.output == .on)
        room.run(1200, at: 6)  // and awake it stays
        #expect(room.engine.output == .on)
        #expect(room.changes.count == 2)
    }

    @Test func aFailedReadingIsNoEvidence() {
        var room = Room()
        room.run(30, at: 300)
        // Dark, but the sensor fails for a second every five minutes: the darkness counts again.
        for _ in 0..<4 {
            room.run(299, at: 0)
            room.run(1, at: nil)
        }
        #expect(room.engine.output == .on)
        room.run(700, at: 0)
        #expect(room.engine.output == .off)
        room.run(1.5, at: 200)
        room.run(0.5, at: nil)
        room.run(1.5, at: 200)
        #expect(room.engine.output == .off)
        room.run(1, at: 200)
        #expect(room.engine.output == .on)
    }

    @Test func aTouchWakesItAtOnceAndTheDarknessCountsFromTheTouch() {
        var room = Room()
        room.run(700, at: 0)
        #expect(room.engine.output == .off)
        let touchedAt = room.time
        room.touch()
        #expect(room.engine.output == .on)
        #expect(room.engine.reason == .touch)
        room.run(590, at: 0)
        #expect(room.engine.output == .on)
        room.run(20, at: 0)
        #expect(room.engine.output == .off)
        let sleptAt = room.changes.last!.0
        #expect(sleptAt - touchedAt >= 600)
        #expect(sleptAt - touchedAt <= 600.1 + 1e-9)
    }

    @Test func anAwakeWindowKeepsItOnAndWakesItAtItsStart() throws {
        let configuration = try DisplaySleepConfiguration(awake: [DailyWindow("07:00-22:00")!])
        var room = Room(configuration)
        // The clock reads 21:50 at time 0; a minute of the day per 60 s.
        let clock: (Double) -> Int = { t in (21 * 60 + 50 + Int(t / 60)) % DailyWindow.minutesPerDay }
        room.run(1200, minuteOfDay: clock) { _ in 0 }
        // Dark all along: no sleep before 22:00 (600 s), then at once (the darkness has lasted).
        #expect(room.changes.count == 1)
        #expect(abs(room.changes[0].0 - 600) < 0.15)
        // 07:00 comes; still dark, it wakes.
        room.run(9 * 3600, minuteOfDay: clock) { _ in 0 }
        #expect(room.changes.count == 2)
        #expect(room.changes[1].1 == .on)
        #expect(room.engine.reason == .window)
        #expect(abs(room.changes[1].0 - (9 * 3600 + 600)) < 0.15)
    }

    @Test func overridesHoldAndTheRoomDecidesWhenTheyEnd() {
        var room = Room()
        room.run(30, at: 300)
        room.apply(.hold(.off, duration: 60))
        #expect(room.engine.output == .off)
        #expect(room.engine.reason == .override)
        #expect(room.engine.nextDeadline == 90)
        room.run(61, at: 300)
        #expect(room.engine.output == .on)  // a lit room when it ended
        room.run(700, at: 0)
        #expect(room.engine.output == .off)
        room.apply(.hold(.on, duration: 3600))
        room.run(10, at: 0)
        #expect(room.engine.output == .on)
        room.apply(.auto)
        #expect(room.engine.output == .off)  // dark all along
        #expect(room.engine.reason == .auto)
        room.apply(.hold(.on, duration: nil))
        room.run(3 * 86_400, at: 0)
        #expect(room.engine.output == .on)
        #expect(room.engine.nextDeadline == nil)
    }

    @Test func aTouchEndsAnOverrideThatHoldsItOffButNotOneThatHoldsItOn() {
        var room = Room()
        room.run(30, at: 300)
        room.apply(.hold(.off, duration: nil))
        room.touch()
        #expect(room.engine.output == .on)
        #expect(room.engine.activeOverride == nil)
        room.apply(.hold(.on, duration: 60))
        room.touch()
        #expect(room.engine.activeOverride == DisplaySleepEngine.Override(power: .on, until: room.time + 60))
    }

    @Test func aDisplayFoundAsleepAtStartStaysAsleepUntilTheRoomWakesIt() {
        var room = Room()
        room.engine.foundAsleep()
        #expect(room.engine.output == .off && room.engine.reason == .startup)
        room.run(60, at: 1)
        #expect(room.changes.isEmpty)
        room.run(5, at: 300)
        #expect(room.changes.count == 1 && room.changes[0].1 == .on)
        #expect(room.changes[0].0 <= 60 + DisplaySleepConfiguration.darkRoom.wakeAfter + 0.1)
    }

    @Test func foundAsleepIsNewsOnlyBeforeTheRoomHasSaidAnything() {
        var touched = Room()
        touched.touch()
        touched.engine.foundAsleep()
        #expect(touched.engine.output == .on, "a touch before the device answered wins")
        var slept = Room(try! DisplaySleepConfiguration(sleepAfter: 15))
        slept.run(20, at: 1)
        slept.run(5, at: 300)
        #expect(slept.engine.output == .on && slept.engine.reason == .light)
        slept.engine.foundAsleep()
        #expect(slept.engine.output == .on)
    }

    @Test func badSettingsAreRefusedNamingTheirKey() {
        func refusal(_ make: () throws(ConfigurationError) -> DisplaySleepConfiguration) -> String? {
            do {
                _ = try make()
                return nil
            } catch {
                return error.key
            }
        }
        #expect(refusal { () throws(ConfigurationError) in try .init(sleepBelow: 0) } == "sleepBelow")
        #expect(
            refusal { () throws(ConfigurationError) in try .init(sleepBelow: 5, wakeAbove: 5) } == "wakeAbove"
        )
        #expect(refusal { () throws(ConfigurationError) in try .init(sleepAfter: 14.9) } == "sleepAfter")
        #expect(refusal { () throws(ConfigurationError) in try .init(sleepAfter: 15) } == nil)
        #expect(refusal { () throws(ConfigurationError) in try .init(wakeAfter: -1) } == "wakeAfter")
        #expect(refusal { () throws(ConfigurationError) in try .init() } == nil)
    }
}

struct DailyWindowTests {
    @Test func windowsReadTheirTimesAndRunPastMidnight() {
        let day = DailyWindow("07:00-22:00")!
        #expect(day.contains(minute: 7 * 60))
        #expect(day.contains(minute: 22 * 60 - 1))
        #expect(!day.contains(minute: 22 * 60))
        #expect(!day.contains(minute: 3 * 60))
        let night = DailyWindow("22:30-06:00")!
        #expect(night.contains(minute: 23 * 60))
        #expect(night.contains(minute: 5 * 60))
        #expect(!night.contains(minute: 12 * 60))
        #expect(night.description == "22:30-06:00")
        #expect(DailyWindow("00:00-24:00")?.description == nil)  // 24:00 is midnight: no window
        #expect(DailyWindow("18:00-24:00")?.contains(minute: 23 * 60 + 59) == true)
    }

    @Test(arguments: [
        "7:00-22:00", "07:00", "07:00-07:00", "25:00-01:00", "07:60-08:00", "07:00-22:00-23:00", "",
    ])
    func notAWindow(text: String) {
        #expect(DailyWindow(text) == nil)
    }
}
