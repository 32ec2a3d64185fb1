import AmbienceClient
import AmbienceCore
import AmbienceDaemon
import AmbienceKiosk
import AmbienceOutputs
import AmbienceSystem
import AmbienceTestSupport
import Testing

/// `ambience kiosk` in a Wayland session, in simulated time: it reads the daemon's lines as they
/// are delivered, puts an emulated compositor's outputs to what they ask (`SessionOutputs`, the
/// kiosk's own logic), measures them every 5 s and writes `outputs on|off` to the control pipe.
/// At each of `others` another program (swayidle, wlopm, a monitor reconnecting) sets the outputs.
final class EmulatedKiosk: LoopWaiting {
    let clock: ManualClock
    let sink: RecordingSink
    let controlPipe: String
    var others: [(time: Double, power: DisplayPower)]
    /// The compositor's outputs.
    private(set) var mode: DisplayPower = .on
    /// Every mode the kiosk set, with when.
    private(set) var sets: [(time: Double, power: DisplayPower)] = []
    private var outputs = SessionOutputs()
    private var seen = 0
    private var nextCheck = 0.0

    init(clock: ManualClock, sink: RecordingSink, controlPipe: String, others: [(Double, DisplayPower)] = [])
    {
        self.clock = clock
        self.sink = sink
        self.controlPipe = controlPipe
        self.others = others.map { (time: $0.0, power: $0.1) }
    }

    func wait(until deadline: Double, reading descriptors: [FileDescriptor], writing: [FileDescriptor])
        -> Wake
    {
        var actions: [SessionOutputs.Action] = []
        for event in sink.events.dropFirst(seen) where event.kind == .change || event.kind == .current {
            actions += outputs.line(display: event.display, asked: event.displayAsked)
        }
        seen = sink.events.count
        if outputs.asked != nil, clock.now >= nextCheck {
            nextCheck = clock.now + SessionOutputs.checkInterval
            actions += outputs.measured(mode)
        }
        if perform(actions), let control = descriptors.first { return .readable(control) }
        let wake = min(
            deadline, others.first?.time ?? .infinity, outputs.asked != nil ? nextCheck : .infinity)
        clock.sleep(until: max(clock.now, wake))
        if let other = others.first, other.time <= clock.now {
            others.removeFirst()
            mode = other.power
        }
        return .deadline
    }

    /// Whether a line went to the control pipe.
    private func perform(_ actions: [SessionOutputs.Action]) -> Bool {
        var wrote = false
        var pending = actions
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .set(let power):
                // The compositor takes a request for the mode an output is in as nothing.
                if power != mode { sets.append((clock.now, power)) }
                mode = power
                pending += outputs.measured(mode)
            case .report(let power):
                try? DaemonControl.send(ControlLine.outputs(power), to: controlPipe)
                wrote = true
            }
        }
        return wrote
    }
}

struct SessionDisplayDaemonTests {
    let scratch = TemporaryDirectory()
    let clock = ManualClock(now: 0)
    let sink = RecordingSink()
    let log = LogRecorder()

    /// `[display] device = "wayland"`: sleeps after a minute below 3 lx, wakes after 2 s above 10 lx.
    func configuration(device: DisplaySettings.Device = .session) -> DaemonConfiguration {
        var configuration = daemonConfiguration(interval: 0.1)
        configuration.controlPipe = scratch.file("control")
        configuration.stateDirectory = scratch.file("state")
        configuration.display = DisplaySettings(
            device: device, sleep: try! DisplaySleepConfiguration(sleepAfter: 60), touch: false)
        return configuration
    }

    func daemon(
        _ waiter: any LoopWaiting, configuration: DaemonConfiguration, display: any DisplaySwitch,
        light: @escaping (Double) -> Double?
    ) -> Daemon {
        displayDaemon(
            configuration, clock: clock, waiter: waiter, log: log, sink: sink, display: display, light: light)
    }

    func kiosk(others: [(Double, DisplayPower)] = []) -> EmulatedKiosk {
        EmulatedKiosk(clock: clock, sink: sink, controlPipe: scratch.file("control"), others: others)
    }

    /// The newest line at `time`.
    func line(at time: Double) -> Event? { sink.events.last { $0.time <= time } }

    @Test func theOutputsSleepInTheDarkRoomAndWakeWithTheLightAndTheLinesSayWhatTheCompositorSays() throws {
        let kiosk = kiosk()
        // Lit for 10 s, dark until 200 s, then the lamp comes on.
        try daemon(kiosk, configuration: configuration(), display: SessionDisplay()) {
            $0 < 10 ? 300 : $0 < 200 ? 0 : 200
        }.run(until: 240)
        #expect(kiosk.sets.map { $0.power } == [.off, .on])
        let slept = kiosk.sets[0].time
        #expect(slept >= 10 + 4.6 + 60 - 0.1 && slept <= 10 + 4.7 + 60 + 0.1)
        let woke = kiosk.sets[1].time
        #expect(woke >= 202 && woke <= 202.1 + 1e-9)
        // Every line asks; the first, before any kiosk has said, carries the request.
        #expect(sink.events.allSatisfy { $0.displayAsked != nil })
        #expect(sink.events.first?.display == .on && sink.events.first?.displayAsked == .on)
        // Asleep, the lines say off as the kiosk told it; awake, on.
        #expect(line(at: slept + 0.2)?.display == .off && line(at: slept + 0.2)?.displayAsked == .off)
        #expect(line(at: woke + 0.2)?.display == .on && line(at: woke + 0.2)?.displayAsked == .on)
        #expect(log.lines.contains { $0.contains("display wayland: asleep (the room stayed dark)") })
        // Stopping, the daemon's last line asks on: a kiosk left running wakes the outputs.
        #expect(sink.events.last?.displayAsked == .on)
    }

    @Test func outputsThatTurnThemselvesOnArePutBackOnceThenLeftOnAndTheLinesSayOn() throws {
        // Asleep at about 60 s; a monitor reconnecting at 120 s, then again at 130 s.
        let kiosk = kiosk(others: [(120, .on), (130, .on)])
        try daemon(kiosk, configuration: configuration(), display: SessionDisplay()) { _ in 0 }.run(
            until: 150)
        // The kiosk set them off at 60 s, and once more after 120 s; never after 130 s.
        #expect(kiosk.sets.map { $0.power } == [.off, .off])
        let putBack = try #require(kiosk.sets.last?.time)
        #expect(putBack >= 120 && putBack <= 125.2)
        #expect(kiosk.mode == .on)
        #expect(log.lines.filter { $0.contains("turned itself back on: put back to sleep once") }.count == 1)
        #expect(log.lines.filter { $0.contains("turned itself on again: left on") }.count == 1)
        // Given up, the lines ask nothing more of the outputs and say they are on.
        let givenUp = try #require(line(at: 136))
        #expect(givenUp.display == .on && givenUp.displayAsked == .on)
    }

    @Test func anotherProgramsBlankingIsReportedAndNotFought() throws {
        // A lit room; wlopm --off at 20 s (swayidle's timeout), --on at 40 s (a key pressed).
        let kiosk = kiosk(others: [(20, .off), (40, .on)])
        try daemon(kiosk, configuration: configuration(), display: SessionDisplay()) { _ in 300 }.run(
            until: 60)
        // The kiosk never set them: the daemon asked on throughout, and they were on at start.
        #expect(kiosk.sets.isEmpty)
        // Within a check (5 s) of each, the lines say it: Home Assistant's switch says off, then on.
        #expect(line(at: 25.2)?.display == .off && line(at: 25.2)?.displayAsked == .on)
        #expect(line(at: 45.2)?.display == .on)
        #expect(!log.lines.contains { $0.contains("turned itself") })
    }

    @Test func anOutputsLineForAnotherDisplayIsIgnoredWithALogLine() throws {
        let configuration = configuration(device: .auto)
        let script = ControlScript(clock: clock, at: 5.05, send: "outputs off", to: configuration.controlPipe)
        try daemon(script, configuration: configuration, display: RecordingDisplay()) { _ in 300 }.run(
            until: 10)
        #expect(
            log.lines.contains {
                $0.contains("control: ignored 'outputs off': [display] device is not \"wayland\"")
            })
        #expect(sink.events.allSatisfy { $0.display == .on && $0.displayAsked == nil })
    }
}
