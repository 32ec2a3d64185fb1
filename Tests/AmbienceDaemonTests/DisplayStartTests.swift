import AmbienceCore
import AmbienceDaemon
import AmbienceI2C
import AmbienceOutputs
import AmbienceSimulation
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A daemon that starts reads the display's power before it asks anything of it: a display
/// found asleep in a dark room is left asleep (a night-time restart lights no wall), and the room
/// decides from there. Each driver that can say its power, at its start.
struct DisplayStartTests {
    let scratch = TemporaryDirectory()
    let clock = ManualClock(now: 0)
    let sink = RecordingSink()
    let log = LogRecorder()
    static let dark = 1.0
    static let lit = 300.0

    /// Sleeps after a minute of darkness; the run ends before that, at 30 s.
    func configuration(_ device: DisplaySettings.Device) -> DaemonConfiguration {
        var configuration = daemonConfiguration(interval: 0.5)
        configuration.controlPipe = scratch.file("control")
        configuration.stateDirectory = scratch.file("state")
        configuration.display = DisplaySettings(
            device: device, sleep: try! DisplaySleepConfiguration(sleepAfter: 60))
        return configuration
    }

    /// Runs the daemon for 30 s under `lux`, with `look` called at 29 s, before the stop wakes
    /// the display.
    func run(
        _ device: DisplaySettings.Device, _ display: any DisplaySwitch, lux: Double,
        look: @escaping () -> Void = {}
    ) throws {
        let waiter = ControlScript(clock: clock, [(29, .act(look))])
        try displayDaemon(
            configuration(device), clock: clock, waiter: waiter, log: log, sink: sink, display: display
        ) { _ in lux }.run(until: 30)
    }

    /// What the lines said of the display, in order, once each.
    var linesSaid: [DisplayPower?] {
        var said: [DisplayPower?] = []
        for event in sink.events where said.last != event.display { said.append(event.display) }
        return said
    }

    // MARK: bl_power

    func backlight(power: Int) throws -> SysfsDisplayPower {
        try FileSystem.makeDirectory(scratch.file("sys"), mode: 0o755)
        try FileSystem.makeDirectory(scratch.file("sys/panel"), mode: 0o755)
        let file = try FileDescriptor.open(
            scratch.file("sys/panel/bl_power"), O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { file.close() }
        try file.writeAll("\(power)\n")
        return try SysfsDisplayPower(device: "panel", classDirectory: scratch.file("sys"), log: { _ in })
    }

    func blPower() -> String? { try? FileSystem.firstLine(of: scratch.file("sys/panel/bl_power")) }

    @Test func aBacklightFoundAsleepInTheDarkIsLeftAsleep() throws {
        let display = try backlight(power: 4)
        var at29: String?
        try run(.screen(.sysfs("panel")), display, lux: Self.dark) { at29 = blPower() }
        #expect(at29 == "4")
        #expect(linesSaid == [.off])
        #expect(log.lines.contains { $0.contains("display panel: asleep (at start)") }, "\(log.lines)")
    }

    @Test func aBacklightFoundAsleepInALitRoomWakesWithTheLight() throws {
        let display = try backlight(power: 4)
        var at29: String?
        try run(.screen(.sysfs("panel")), display, lux: Self.lit) { at29 = blPower() }
        #expect(at29 == "0")
        #expect(linesSaid == [.off, .on])
        #expect(log.lines.contains { $0.contains("display panel: awake (the light came on)") })
    }

    @Test func aBacklightFoundAwakeInTheDarkStaysAwakeUntilTheRoomDecides() throws {
        let display = try backlight(power: 0)
        var at29: String?
        try run(.screen(.sysfs("panel")), display, lux: Self.dark) { at29 = blPower() }
        #expect(at29 == "0")
        #expect(linesSaid == [.on])
    }

    // MARK: VCP 0xD6

    func monitor(mode: UInt16, quirk: DDCMonitorEmulator.PowerQuirk = .honest) -> (
        DDCMonitor, DDCMonitorEmulator
    ) {
        let bus = MockI2CBus(clock: clock)
        let emulator = DDCMonitorEmulator.attach(to: bus)
        emulator.powerMode = mode
        emulator.powerQuirk = quirk
        return (DDCMonitor(bus: bus, name: "ddc:1 (0x37)", log: { _ in }), emulator)
    }

    @Test func aMonitorFoundInStandbyInTheDarkIsNeverWoken() throws {
        let (display, emulator) = monitor(mode: 4)
        var at29: UInt16?
        try run(.screen(.ddc(.number(1))), display, lux: Self.dark) { at29 = emulator.powerMode }
        #expect(at29 == 4)
        #expect(emulator.powerSets.allSatisfy { $0.time >= 30 }, "nothing written before the stop")
        #expect(!linesSaid.contains(.on))
        #expect(emulator.protocolViolations.isEmpty)
    }

    /// A monitor that any read wakes cannot be told from one that no read wakes before its first
    /// sleep: the start's first read wakes it, and it then says it is on. It starts awake, as it
    /// did before the start read, and the room puts it to sleep as usual.
    @Test func aMonitorThatAReadWakesIsWokenByTheStartsReadAndSaysSo() throws {
        let (display, emulator) = monitor(mode: 4, quirk: .readWakes)
        var at29: UInt16?
        try run(.screen(.ddc(.number(1))), display, lux: Self.dark) { at29 = emulator.powerMode }
        #expect(at29 == 1)
        #expect(linesSaid == [nil, .on])
        #expect(log.lines.contains { $0.contains("awake (at start)") })
    }

    // MARK: HDMI-CEC

    @Test func aTelevisionFoundInStandbyInTheDarkIsNeverWoken() throws {
        let television = EmulatedTelevision(power: .off)
        let display = CECDisplay(adapter: television, name: "cec0", log: { _ in })
        var at29: DisplayPower?
        try run(.cec(0), display, lux: Self.dark) { at29 = television.power }
        #expect(at29 == .off)
        #expect(!linesSaid.contains(.on))
    }

    // MARK: After a stop that woke it

    /// A daemon on `display` in the dark that sleeps after 15 s, from `start` on its clock to
    /// `end`, with the wall clock at `wallClock` plus the run's seconds.
    func night(
        _ display: RecordingDisplay, from start: Double, to end: Double, wallClock: Double
    ) throws {
        var configuration = configuration(.screen(.sysfs("test")))
        configuration.display?.sleep = try DisplaySleepConfiguration(sleepAfter: 15)
        clock.advance(by: start - clock.now)
        try displayDaemon(
            configuration, clock: clock, waiter: ScriptedWaiter(clock: clock, script: []), log: log,
            sink: sink,
            display: display, wallClock: { [clock] in wallClock + clock.now }
        ) { _ in Self.dark }.run(until: end)
    }

    var note: String { scratch.file("state/display-asleep-at-stop") }

    @Test func aStartSoonAfterAStopThatWokeTheDisplayPutsItBackToSleepAtOnce() throws {
        let display = RecordingDisplay()
        try night(display, from: 0, to: 30, wallClock: 1_000_000)
        #expect(display.wishes.map(\.power) == [.on, .off, .on], "asleep at 15 s, woken by the stop")
        #expect(FileSystem.exists(note))
        // An upgrade's restart, 5 s later.
        try night(display, from: 35, to: 50, wallClock: 1_000_000)
        #expect(display.wishes.dropFirst(3).first.map { $0.time == 35 && $0.power == .off } == true)
        #expect(display.wishes.dropFirst(3).map(\.power) == [.off, .on], "then its own stop")
        #expect(
            log.lines.contains { $0.contains("restoring the persisted display's sleep at the last stop") })
    }

    @Test func aStartLongAfterTheStopFindsTheDisplayAsTheStopLeftIt() throws {
        let display = RecordingDisplay()
        try night(display, from: 0, to: 30, wallClock: 1_000_000)
        try night(display, from: 35, to: 50, wallClock: 1_000_000 + DisplayAsleepAtStop.window)
        #expect(display.wishes.dropFirst(3).first.map { $0.time == 35 && $0.power == .on } == true)
    }

    @Test func aStopWhileAwakeLeavesNoNote() throws {
        let display = RecordingDisplay()
        try night(display, from: 0, to: 10, wallClock: 1_000_000)
        #expect(display.wishes.map(\.power) == [.on, .on])
        #expect(!FileSystem.exists(note))
    }

    // MARK: A device that does not say

    /// Says nothing of its power until it is asked for one.
    final class MuteDisplay: DisplaySwitch {
        let name = "mute"
        private(set) var wishes: [(time: Double, power: DisplayPower)] = []
        private(set) var power: DisplayPower?
        func set(power wish: DisplayPower, now: Double) {
            wishes.append((now, wish))
            power = wish
        }
        func poll(now: Double) -> Double? { nil }
        func close() {}
        func askPower(now: Double) -> Bool { true }
    }

    @Test func aDisplayThatDoesNotSayIsWokenOnceTheWaitIsOver() throws {
        let display = MuteDisplay()
        try run(.screen(.sysfs("mute")), display, lux: Self.dark)
        let first = try #require(display.wishes.first)
        #expect(first.power == .on)
        // The wait is 3 s (docs/display-sleep.md); the next sample's turn asks.
        #expect(first.time >= 3 && first.time < 3.6)
        #expect(linesSaid == [nil, .on])
    }
}
