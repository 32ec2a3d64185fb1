import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A display that takes every wish, remembering it and when; at each of `turnsOnAt` it turns
/// itself back on if it is off, as a monitor that reconnects does.
final class RecordingDisplay: DisplaySwitch {
    let name = "test display"
    private(set) var wishes: [(time: Double, power: DisplayPower)] = []
    private(set) var power: DisplayPower?
    var turnsOnAt: [Double] = []

    func set(power wish: DisplayPower, now: Double) {
        wishes.append((now, wish))
        power = wish
    }
    func poll(now: Double) -> Double? {
        while let first = turnsOnAt.first, first <= now {
            turnsOnAt.removeFirst()
            if power == .off { power = .on }
        }
        return turnsOnAt.first
    }
    func close() {}
}

/// A daemon on a fake sensor lit by `light`, its lines to `sink`, its control pipe the
/// configuration's, with `display` and `backlight` as its outputs.
func displayDaemon(
    _ configuration: DaemonConfiguration, clock: ManualClock, waiter: any LoopWaiting, log: LogRecorder,
    sink: RecordingSink, display: (any DisplaySwitch)?, backlight: (any Backlight)? = nil,
    wallClock: @escaping () -> Double = { WallClock.now }, light: @escaping (Double) -> Double?
) -> Daemon {
    let sensor = FakeSensor(clock: clock, conversion: 0, light: light)
    return Daemon(
        configuration: configuration, clock: clock, waiter: waiter,
        logger: Logger(prefixed: false, write: log.record),
        overrides: { OverrideStore(directory: $0.stateDirectory) }, wallClock: wallClock,
        assemble: { configuration, _ throws(DaemonError) in
            do {
                return DaemonParts.of(
                    sensor: sensor, pipes: [sink],
                    control: try ControlPipe(path: configuration.controlPipe, log: { _ in }),
                    backlight: backlight, display: display)
            } catch {
                throw .unavailable("\(error)")
            }
        },
        reload: brokenReload("no reload"))
}

struct DisplaySleepDaemonTests {
    let scratch = TemporaryDirectory()
    let clock = ManualClock(now: 0)
    let display = RecordingDisplay()
    let sink = RecordingSink()
    let log = LogRecorder()

    /// Sleeps after a minute below 3 lx, wakes after 2 s above 10 lx.
    func configuration() -> DaemonConfiguration {
        var configuration = daemonConfiguration(interval: 0.1)
        configuration.controlPipe = scratch.file("control")
        configuration.stateDirectory = scratch.file("state")
        configuration.display = DisplaySettings(sleep: try! DisplaySleepConfiguration(sleepAfter: 60))
        return configuration
    }

    func daemon(_ waiter: any LoopWaiting, light: @escaping (Double) -> Double?) -> Daemon {
        displayDaemon(
            configuration(), clock: clock, waiter: waiter, log: log, sink: sink, display: display,
            light: light)
    }

    /// The display's power each line carried, with the line's time.
    var carried: [(time: Double, display: DisplayPower?)] { sink.events.map { ($0.time, $0.display) } }

    @Test func theDisplaySleepsInTheDarkRoomAndWakesWithTheLightAndTheLinesSaySo() throws {
        let waiter = ScriptedWaiter(clock: clock, script: [])
        // Lit for 10 s, dark until 200 s, then the lamp comes on.
        try daemon(waiter) { $0 < 10 ? 300 : $0 < 200 ? 0 : 200 }.run(until: 240)
        #expect(display.wishes.map { $0.power } == [.on, .off, .on, .on])
        let slept = display.wishes[1].time
        // The average is below 3 lx τ·ln(100) ≈ 4.6 s after the light went out (τ 1 s), and the
        // display sleeps a minute later, at a sample.
        #expect(slept >= 10 + 4.6 + 60 - 0.1 && slept <= 10 + 4.7 + 60 + 0.1)
        let woke = display.wishes[2].time
        #expect(woke >= 202 && woke <= 202.1 + 1e-9)
        // The lines: the startup says on; a `current` line says off when the display is, and on.
        #expect(sink.events.first?.display == .on)
        let news = sink.events.filter { $0.kind == .current }.map { $0.display }
        #expect(news.contains(.off) && news.last == .on)
        #expect(log.lines.contains { $0.contains("display test display: asleep (the room stayed dark)") })
        #expect(log.lines.contains { $0.contains("display test display: awake (the light came on)") })
        // Stopping the daemon leaves the display awake.
        #expect(display.wishes.last?.power == .on)
    }

    @Test func anOverrideHoldsTheDisplayOffAcrossARestartUntilAuto() throws {
        let configuration = configuration()
        let hold = ControlScript(
            clock: clock, at: 10.05, send: "display off for 2h", to: configuration.controlPipe)
        try daemon(hold) { _ in 300 }.run(until: 30)
        #expect(display.power == .on)  // stopped: left awake
        #expect(display.wishes.map { $0.power } == [.on, .off, .on])
        let stored = try FileSystem.firstLine(
            of: OverrideStore(directory: configuration.stateDirectory).displayPath)
        #expect(stored.hasPrefix("off until "))

        // A restart in the lit room: the override is restored at once.
        let before = display.wishes.count
        try daemon(ScriptedWaiter(clock: clock, script: [])) { _ in 300 }.run(until: 60)
        #expect(display.wishes.dropFirst(before).first?.power == .off)
        // The first line after the restart already says so.
        #expect(sink.events.first { $0.time >= 30 }?.display == .off)

        let auto = ControlScript(clock: clock, at: 60.05, send: "display auto", to: configuration.controlPipe)
        try daemon(auto) { _ in 300 }.run(until: 90)
        #expect(!FileSystem.exists(OverrideStore(directory: configuration.stateDirectory).displayPath))
        #expect(sink.events.last?.display == .on)
    }

    @Test func aDisplayThatTurnsItselfOnIsPutBackOnceThenLeftOnAndReportedOn() throws {
        display.turnsOnAt = [120, 130]
        try daemon(ScriptedWaiter(clock: clock, script: [])) { _ in 0 }.run(until: 150)
        // Asleep at about 60 s; on by itself at 120 s, put back; on again at 130 s, left so.
        #expect(display.wishes.map { $0.power } == [.on, .off, .off, .on])
        #expect(abs(display.wishes[2].time - 120) < 0.11)
        #expect(log.lines.filter { $0.contains("turned itself back on: put back to sleep once") }.count == 1)
        #expect(log.lines.filter { $0.contains("turned itself on again: left on") }.count == 1)
        // The lines never said off while the display was on: the last word before the stop is on.
        let beforeStop = sink.events.filter { $0.time < 149 }
        #expect(beforeStop.last?.display == .on)
    }

    @Test func aDisplayLineWithoutTheTableIsIgnoredWithALogLine() throws {
        var configuration = configuration()
        configuration.display = nil
        let daemon = displayDaemon(
            configuration, clock: clock,
            waiter: ControlScript(clock: clock, at: 5.05, send: "display off", to: configuration.controlPipe),
            log: log, sink: sink, display: nil
        ) { _ in 300 }
        try daemon.run(until: 10)
        #expect(log.lines.contains { $0.contains("ignored a display line: no [display] is configured") })
        #expect(sink.events.allSatisfy { $0.display == nil })
        #expect(!FileSystem.exists(OverrideStore(directory: configuration.stateDirectory).displayPath))
    }
}

/// Writes input events into a touchscreen's node at given times and wakes the loop for them.
final class TouchScript: LoopWaiting {
    let clock: ManualClock
    var script: [(time: Double, bytes: [UInt8])]
    let writer: FileDescriptor
    let touch: TouchScreens

    init(clock: ManualClock, writer: FileDescriptor, touch: TouchScreens, script: [(Double, [UInt8])]) {
        self.clock = clock
        self.writer = writer
        self.touch = touch
        self.script = script.map { (time: $0.0, bytes: $0.1) }
    }

    func wait(until deadline: Double, reading descriptors: [FileDescriptor], writing: [FileDescriptor])
        -> Wake
    {
        if let next = script.first, deadline >= next.time, let descriptor = touch.descriptors.first {
            clock.sleep(until: next.time)
            script.removeFirst()
            try? writer.writeAll(next.bytes)
            return .readable(descriptor)
        }
        clock.sleep(until: deadline)
        return .deadline
    }
}

/// Writes down, at each poll (every second) and each line, whether the touchscreens are grabbed.
final class GrabWatch: Sink {
    let touch: TouchScreens
    private(set) var timeline: [(time: Double, grabbed: Bool)] = []
    /// At each line that carries the display's power: the power, and whether they were grabbed.
    private(set) var atLines: [(display: DisplayPower?, grabbed: Bool)] = []
    init(_ touch: TouchScreens) { self.touch = touch }
    func deliver(_ event: Event) { atLines.append((event.display, touch.isGrabbed)) }
    func poll(now: Double) { timeline.append((now, touch.isGrabbed)) }
    func close() {}
}

struct TouchWakesTheDisplayTests {
    let clock = ManualClock(now: 0)
    let display = RecordingDisplay()
    let sink = RecordingSink()

    @Test func aTouchWakesTheSleepingDisplayAndTheGrabLastsUntilTheFingerLifts() throws {
        let devices = try InputDevices()
        try devices.addTouchScreen("event3")
        let touch = TouchScreens(
            classDirectory: devices.classDirectory, deviceDirectory: devices.deviceDirectory, log: { _ in })
        let writer = try devices.writer("event3")
        defer { writer.close() }
        var configuration = daemonConfiguration(interval: 0.1)
        configuration.display = DisplaySettings(sleep: try DisplaySleepConfiguration(sleepAfter: 60))
        let watch = GrabWatch(touch)
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in 0 }
        let display = display
        let sink = sink
        let down = inputEvent(1, 0x14A, 1) + inputEvent(0, 0, 0)
        let up = inputEvent(1, 0x14A, 0) + inputEvent(0, 0, 0)
        let waiter = TouchScript(
            clock: clock, writer: writer, touch: touch,
            script: [(30, down), (30.5, up), (100, down), (101, up)])
        let daemon = Daemon(
            configuration: configuration, clock: clock, waiter: waiter,
            logger: Logger(prefixed: false, write: { _ in }), overrides: { _ in nil },
            assemble: { _, _ in
                DaemonParts.of(sensor: sensor, pipes: [sink, watch], display: display, touch: touch)
            },
            reload: brokenReload("no reload"))
        try daemon.run(until: 130)
        // A touch while awake at 30 s: the darkness counts from it, so the display sleeps at about
        // 90 s, not 60; then the touch at 100 s wakes it at once.
        let powers = display.wishes.map { $0.power }
        #expect(powers == [.on, .off, .on, .on])
        #expect(display.wishes[1].time >= 90 && display.wishes[1].time <= 90.2)
        #expect(display.wishes[2].time == 100)
        // Grabbed while asleep and until the waking finger lifted; let go before and after.
        let timeline = watch.timeline
        #expect(timeline.filter { $0.time < 90 }.allSatisfy { !$0.grabbed })
        #expect(timeline.filter { $0.time > 90.5 && $0.time < 100.9 }.allSatisfy { $0.grabbed })
        #expect(timeline.filter { $0.time > 101.1 }.allSatisfy { !$0.grabbed })
        #expect(timeline.contains { $0.time > 101.1 })
        // The line that says the display is asleep, and the one that says the touch woke it,
        // with the finger still down: both grabbed.
        let news = watch.atLines.filter { $0.display != nil }
        #expect(news.map(\.display).suffix(2) == [.off, .on])
        #expect(news.suffix(2).allSatisfy { $0.grabbed })
    }
}
