import AmbienceClient
import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Remembers every percent it was asked for, and when.
final class RecordingBacklight: Backlight {
    let name = "test backlight"
    private(set) var wishes: [(time: Double, percent: Int)] = []
    private(set) var closed = false

    func set(percent: Int, now: Double) {
        if wishes.last?.percent != percent { wishes.append((now, percent)) }
    }
    func poll(now: Double) -> Double? { nil }
    func close() { closed = true }
}

struct BacklightDaemonTests {
    let scratch = TemporaryDirectory()
    let clock = ManualClock(now: 0)
    let backlight = RecordingBacklight()
    let sink = RecordingSink()

    func configuration() -> DaemonConfiguration {
        var configuration = daemonConfiguration(interval: 0.1)
        configuration.controlPipe = scratch.file("control")
        configuration.stateDirectory = scratch.file("state")
        configuration.backlight = BacklightSettings()
        return configuration
    }

    func daemon(_ waiter: any LoopWaiting, light: @escaping (Double) -> Double?) -> Daemon {
        displayDaemon(
            configuration(), clock: clock, waiter: waiter, log: LogRecorder(), sink: sink, display: nil,
            backlight: backlight, light: light)
    }

    @Test func brightnessFollowsTheLightAndTheLinesCarryIt() throws {
        let waiter = ScriptedWaiter(clock: clock, script: [])
        try daemon(waiter) { $0 < 30 ? 5 : 3000 }.run(until: 60)
        let settings = BrightnessConfiguration.indoorKiosk
        let dim = settings.percent(logLux: log10(5), state: .regular)
        let bright = settings.percent(logLux: log10(3000), state: .contrast)
        #expect(backlight.wishes.first?.percent == dim)
        #expect(backlight.wishes.last?.percent == bright)
        // One percent at a time, no faster than the ramp, done within the documented bound.
        let fade = backlight.wishes.dropFirst()
        #expect(fade.count == bright - dim)
        #expect(zip(fade, fade.dropFirst()).allSatisfy { $1.time - $0.time >= 0.1 - 1e-6 })
        let done = try #require(fade.last?.time)
        #expect(done - 30 <= settings.latencyBound(sampleInterval: 0.1))
        // The lines: the startup carries the first percent, a `current` line the fade's end.
        #expect(sink.events.first?.brightness == dim)
        #expect(sink.events.last?.kind == .current && sink.events.last?.brightness == bright)
        #expect(sink.events.last?.lux == 3000 && sink.events.last?.state == .contrast)
        // Ramping at 10 %/s with samples at 10 Hz costs no wake-up of its own.
        #expect(waiter.waits == 600)
    }

    @Test func anOverrideHoldsAndOutlivesARestartUntilAuto() throws {
        let configuration = configuration()
        let hold = ControlScript(
            clock: clock, at: 10.05, send: "brightness 80 for 2h", to: configuration.controlPipe)
        try daemon(hold) { _ in 5 }.run(until: 30)
        #expect(backlight.wishes.last?.percent == 80)
        let stored = try FileSystem.firstLine(
            of: OverrideStore(directory: configuration.stateDirectory).brightnessPath)
        #expect(stored.hasPrefix("80 until "))

        // A restart: the override is restored at once, in the dark still.
        let before = backlight.wishes.count
        let again = ScriptedWaiter(clock: clock, script: [])
        try daemon(again) { _ in 5 }.run(until: 60)
        #expect(backlight.wishes.dropFirst(before).allSatisfy { $0.percent == 80 })
        #expect(sink.events.last?.brightness == 80)

        let auto = ControlScript(
            clock: clock, at: 60.05, send: "brightness auto", to: configuration.controlPipe)
        try daemon(auto) { _ in 5 }.run(until: 90)
        let dim = BrightnessConfiguration.indoorKiosk.percent(logLux: log10(5), state: .invert)
        #expect(backlight.wishes.last?.percent == dim)
        #expect(!FileSystem.exists(OverrideStore(directory: configuration.stateDirectory).brightnessPath))
    }

    @Test func aReloadThatAddsTheTableStartsTheBacklightAndOnlyIt() throws {
        var without = configuration()
        without.backlight = nil
        let with = configuration()
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in 300 }
        let backlight = backlight
        var built: [Set<DaemonPart>] = []
        let daemon = Daemon(
            configuration: without, clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: [(20, .signal(SIGHUP))]),
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { configuration, parts in
                built.append(parts)
                return DaemonParts.of(
                    sensor: sensor, backlight: configuration.backlight == nil ? nil : backlight)
            },
            reload: { with })
        try daemon.run(until: 40)
        #expect(built.last == [.backlight])
        #expect(backlight.wishes.first.map { $0.time >= 20 } == true)
        #expect(
            backlight.wishes.last?.percent
                == BrightnessConfiguration.indoorKiosk.percent(logLux: log10(300), state: .regular))
    }
}
