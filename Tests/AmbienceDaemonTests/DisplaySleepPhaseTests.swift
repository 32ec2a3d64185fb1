import AmbienceCore
import AmbienceDaemon
import AmbienceDisplayProtocols
import AmbienceI2C
import AmbienceOutputs
import AmbienceSimulation
import AmbienceSystem
import AmbienceTestSupport
import Testing

/// A DDC/CI monitor's power is read every 5 s (`DDCMonitor.powerCheckInterval`): a Get, its
/// reply 40 ms later, then the bus's 50 ms rest. A sleep decided at any moment of that, with a
/// read in flight or the bus resting after one, is not a monitor that turned itself back on.
struct DisplaySleepPhaseTests {
    /// A lit room and the emulated monitor; `display off` at `decision` (a sleep decided then),
    /// and the monitor turning itself on at `reconnect`, as one that loses and finds its signal
    /// does. Returns the daemon's log and the monitor.
    func night(deciding decision: Double, reconnect: Double, until end: Double) throws -> (
        log: [String], monitor: DDCMonitorEmulator
    ) {
        let scratch = TemporaryDirectory()
        let clock = ManualClock(now: 0)
        let bus = MockI2CBus(clock: clock)
        let emulator = DDCMonitorEmulator.attach(to: bus)
        var configuration = daemonConfiguration(interval: 1)
        configuration.controlPipe = scratch.file("control")
        configuration.stateDirectory = scratch.file("state")
        configuration.display = DisplaySettings(device: .screen(.ddc(.number(1))))
        let waiter = ControlScript(
            clock: clock,
            [
                (decision, .line("display off", to: configuration.controlPipe)),
                (reconnect, .act { emulator.powerMode = 1 }),
            ])
        let log = LogRecorder()
        let monitor = DDCMonitor(bus: bus, name: "ddc:1 (0x37)", log: { _ in })
        try displayDaemon(
            configuration, clock: clock, waiter: waiter, log: log, sink: RecordingSink(), display: monitor
        ) { _ in 300 }.run(until: end)
        return (log.lines, emulator)
    }

    /// Reads are at 1.00 s after the start's write, then every 5.04 s (the check is due 5 s
    /// after each reply): a whole period and its rest, from 16 s, at 10 ms steps.
    static let decisions = (0...510).map { 16 + Double($0) / 100 }

    @Test func aSleepDecidedAtAnyPhaseOfAPowerReadIsNoSelfWake() throws {
        var selfWakes: [Double] = []
        for decision in Self.decisions {
            // The monitor never turns itself on here.
            let (log, monitor) = try night(deciding: decision, reconnect: decision + 60, until: decision + 20)
            if log.contains(where: { $0.contains("turned itself") }) { selfWakes.append(decision) }
            #expect(monitor.protocolViolations.isEmpty, "\(decision)")
        }
        #expect(
            selfWakes.isEmpty,
            "\(selfWakes.count) sleeps logged a self-wake, the first at \(selfWakes.prefix(3))")
    }

    @Test func aMonitorThatReallyTurnsOnAfterAnyOfThoseSleepsIsPutBackOnce() throws {
        var notPutBack: [Double] = []
        for decision in Self.decisions {
            let (log, monitor) = try night(deciding: decision, reconnect: decision + 8, until: decision + 20)
            // Put back once (standby, 2), and asleep until the stop wakes it (1).
            let backOn = log.filter { $0.contains("turned itself back on: put back to sleep once") }
            let afterReconnect = monitor.powerSets.filter { $0.time > decision + 8 }.map(\.value)
            let onAgain = log.contains { $0.contains("turned itself on again") }
            if backOn.count != 1 || onAgain || afterReconnect != [2, 1] { notPutBack.append(decision) }
        }
        #expect(
            notPutBack.isEmpty,
            "\(notPutBack.count) reconnects not put back once, the first after sleeps at \(notPutBack.prefix(3))"
        )
    }
}
