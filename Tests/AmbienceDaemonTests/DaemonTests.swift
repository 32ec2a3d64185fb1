import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A light sensor whose light is a function of simulated time; a conversion takes `conversion`,
/// which the daemon must come back for, as it does for a real chip.
final class FakeSensor: LightSensor {
    let clock: ManualClock
    var light: (Double) -> Double?
    var conversion: Double
    /// The conversion times of the first measurements, `conversion` after them.
    var conversions: [Double] = []
    /// When each measurement began, and when each ended with a reading or a failure.
    private(set) var readTimes: [Double] = []
    private(set) var doneTimes: [Double] = []
    private var convertingUntil: Double?

    init(clock: ManualClock, conversion: Double = 0.03, light: @escaping (Double) -> Double?) {
        self.clock = clock
        self.conversion = conversion
        self.light = light
    }

    var description: String { "fake sensor" }

    func measure() throws(SensorError) -> SensorProgress {
        if convertingUntil == nil {
            readTimes.append(clock.now)
            let conversion = conversions.isEmpty ? conversion : conversions.removeFirst()
            if conversion > 0 {
                convertingUntil = clock.now + conversion
            }
        }
        if let until = convertingUntil {
            guard clock.now >= until else { return .pending(until: until) }
            convertingUntil = nil
        }
        doneTimes.append(clock.now)
        guard let lux = light(clock.now) else {
            throw SensorError(
                .bus(I2CError(.notAcknowledged, bus: "fake", address: 0x23)), sensor: description)
        }
        return .reading(Reading(lux: lux, settings: "fake"))
    }
}

/// A reload that finds the file broken.
func brokenReload(_ message: String) -> Daemon.Reload {
    { () throws(ConfigFileErrors) in
        throw ConfigFileErrors([
            ConfigFileError(
                file: "/etc/ambience/ambience.toml", line: 3, key: "timing.latency", message: message)
        ])
    }
}

/// Remembers what it was given.
final class RecordingSink: Sink {
    private(set) var events: [Event] = []
    private(set) var pollTimes: [Double] = []
    private(set) var closed = false

    func deliver(_ event: Event) { events.append(event) }
    func poll(now: Double) { pollTimes.append(now) }
    func close() { closed = true }
}

let daemonThresholds = try! Thresholds(
    invertRegular: Boundary(fall: 10, rise: 20), regularContrast: Boundary(fall: 500, rise: 1000))

func daemonConfiguration(
    dwell: Double = 2, interval: Double = 0.5, faultAfter: Double = 3,
    thresholds: Thresholds = daemonThresholds
)
    -> DaemonConfiguration
{
    DaemonConfiguration(
        sensor: .init(kind: .bh1750),
        engine: try! EngineConfiguration(
            thresholds: thresholds, timeConstant: 1, minimumDwell: dwell,
            latencyBound: 2 * dwell + interval + 1,
            sampleInterval: interval, faultAfter: faultAfter))
}

struct DaemonHarness {
    let clock = ManualClock(now: 1000)
    let sensor: FakeSensor
    let sink = RecordingSink()
    let waiter: ScriptedWaiter
    var logLines: [String] { log.lines }
    let log = LogRecorder()
    let daemon: Daemon

    init(
        configuration: DaemonConfiguration = daemonConfiguration(),
        script: [(time: Double, wake: Wake)],
        reload: @escaping Daemon.Reload = brokenReload("no reload in this test"),
        light: @escaping (Double) -> Double?
    ) {
        let sensor = FakeSensor(clock: clock, light: light)
        self.sensor = sensor
        waiter = ScriptedWaiter(clock: clock, script: script.map { (1000 + $0.time, $0.wake) })
        let sink = sink
        let log = log
        daemon = Daemon(
            configuration: configuration, clock: clock, waiter: waiter,
            logger: Logger(prefixed: true, write: log.record),
            overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor, pipes: [sink]) },
            reload: reload)
    }
}

final class LogRecorder: @unchecked Sendable {
    private(set) var lines: [String] = []
    func record(_ line: String) { lines.append(line) }
}

struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

struct DaemonLoopTests {
    @Test func samplesOnAFixedScheduleWithoutDrift() throws {
        let harness = DaemonHarness(script: [(60, .signal(SIGTERM))]) { _ in 300 }
        try harness.daemon.run()
        let offsets = harness.sensor.readTimes.map { $0 - 1000 }
        #expect(offsets.count == 120)  // 0, 0.5, … 59.5
        for (index, offset) in offsets.enumerated() {
            #expect(abs(offset - Double(index) * 0.5) < 1e-9, "sample \(index) at \(offset)")
        }
    }

    @Test func tenthsOfASecondNeverScheduleTheSameSlotTwice() throws {
        // 4.1 / 0.1 is 40.999… in binary: a schedule computed by division would sample at 4.1 forever.
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in 300 }
        let daemon = Daemon(
            configuration: daemonConfiguration(interval: 0.1), clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: []), logger: Logger(prefixed: true, write: { _ in }),
            overrides: { _ in nil }, assemble: { _, _ in DaemonParts.of(sensor: sensor) },
            reload: brokenReload("no reload"))
        try daemon.run(until: 10)
        #expect(sensor.readTimes.count == 100)
        for (index, time) in sensor.readTimes.enumerated() {
            #expect(abs(time - Double(index) * 0.1) < 1e-9, "sample \(index) at \(time)")
        }
    }

    @Test func aMeasurementLongerThanTheFaultTimeIsNoFaultWhenItsReadingComes() throws {
        // The first read in the dark, its automatic range taking 1.05 s, then 30 ms reads.
        let harness = DaemonHarness(
            configuration: daemonConfiguration(interval: 0.2, faultAfter: 1), script: [(10, .signal(SIGTERM))]
        ) { _ in 5 }
        harness.sensor.conversions = [1.05]
        try harness.daemon.run()
        #expect(!harness.sink.events.contains { $0.kind == .fault }, "\(harness.sink.events.map(\.kind))")
        // Stamped with the slot each reading came in: 1.0 for the long one, then 1.2, 1.4, …
        let times = harness.daemon.record.rows.map { ($0.time - 1000) * 1000 }.map { $0.rounded() }
        #expect(Array(times.prefix(3)) == [1000, 1200, 1400])
    }

    @Test func aReadingBegunRightAtTheFaultDeadlineIsInTime() throws {
        // Valid at 0, a failed read at 0.5, and the read begun at 1.0 (the deadline) converting
        // 30 ms: the loop must not raise the fault while that reading is on its way.
        let harness = DaemonHarness(
            configuration: daemonConfiguration(interval: 0.5, faultAfter: 1), script: [(3, .signal(SIGTERM))]
        ) { time in (0.4..<0.6).contains(time - 1000) ? nil : 300 }
        try harness.daemon.run()
        #expect(harness.sensor.readTimes.prefix(3).map { $0 - 1000 } == [0, 0.5, 1])
        #expect(!harness.sink.events.contains { $0.kind == .fault }, "\(harness.sink.events.map(\.kind))")
    }

    @Test func aSlowReadSkipsSlotsInsteadOfBunching() throws {
        let harness = DaemonHarness(script: [(10, .signal(SIGTERM))]) { _ in 300 }
        harness.sensor.conversion = 1.2  // longer than two intervals
        try harness.daemon.run()
        let offsets = harness.sensor.readTimes.map { $0 - 1000 }
        #expect(offsets.prefix(4).map { ($0 * 10).rounded() / 10 } == [0, 1.5, 3, 4.5])
    }

    @Test func eventsReachTheSinksAndSinksArePolledEverySecond() throws {
        let harness = DaemonHarness(script: [(30, .signal(SIGINT))]) { time in time < 1010 ? 300 : 2 }
        try harness.daemon.run()
        let changes = harness.sink.events.filter { $0.kind == .change }
        #expect(changes.map(\.state) == [.regular, .invert])
        #expect(changes.map(\.reason) == [.startup, .light])
        let gaps = zip(harness.sink.pollTimes, harness.sink.pollTimes.dropFirst()).map { $1 - $0 }
        #expect(!gaps.isEmpty && gaps.allSatisfy { $0 <= 1.0 + 1e-9 })
        #expect(harness.logLines.contains { $0.hasPrefix("<5>state regular → invert (light") })
    }

    @Test func atTenHertzTheLoopWakesOnlyToSample() throws {
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in 300 }
        let sink = RecordingSink()
        let waiter = ScriptedWaiter(clock: clock, script: [])
        let daemon = Daemon(
            configuration: daemonConfiguration(interval: 0.1), clock: clock, waiter: waiter,
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor, pipes: [sink]) },
            reload: brokenReload("no reload"))
        try daemon.run(until: 60)
        #expect(waiter.waits == 600)  // one wait per sample, none for the pipe check
        let gaps = zip(sink.pollTimes, sink.pollTimes.dropFirst()).map { $1 - $0 }
        #expect(gaps.count >= 59 && gaps.allSatisfy { $0 <= 1.0 + 1e-9 })
    }

    @Test func samplesFurtherApartThanASecondStillLetSinksPollEverySecond() throws {
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in 300 }
        let sink = RecordingSink()
        let daemon = Daemon(
            configuration: daemonConfiguration(dwell: 5, interval: 5, faultAfter: 12), clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: []), logger: Logger(prefixed: true, write: { _ in }),
            overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor, pipes: [sink]) },
            reload: brokenReload("no reload"))
        try daemon.run(until: 60)
        #expect(sensor.readTimes.count == 12)
        let gaps = zip(sink.pollTimes, sink.pollTimes.dropFirst()).map { $1 - $0 }
        #expect(gaps.count >= 59 && gaps.allSatisfy { $0 <= 1.0 + 1e-9 })
    }

    @Test func terminationClosesEverySinkAndReturns() throws {
        let harness = DaemonHarness(script: [(2, .signal(SIGTERM))]) { _ in 300 }
        try harness.daemon.run()
        #expect(harness.sink.closed)
        #expect(harness.logLines.last == "<5>signal \(SIGTERM): shutting down\n")
    }

    @Test func aSensorFaultIsLoggedOnceAndItsRecoveryOnce() throws {
        let harness = DaemonHarness(script: [(40, .signal(SIGTERM))]) { time in
            (1005..<1020).contains(time) ? nil : 300
        }
        try harness.daemon.run()
        let errors = harness.logLines.filter { $0.hasPrefix("<3>fake sensor") }
        #expect(errors.count == 1)
        #expect(harness.logLines.filter { $0.contains("reading again") }.count == 1)
        #expect(harness.sink.events.map(\.kind) == [.change, .fault, .recovered])
        #expect(harness.logLines.filter { $0.hasPrefix("<4>sensor fault") }.count == 1)
    }

    @Test func sighupWithANewThresholdChangesBehaviourWithoutARestart() throws {
        // 300 lux is regular; after the reload, regular ends at 100 lux, so 300 is sunlight.
        let brighter = try Thresholds(
            invertRegular: Boundary(fall: 10, rise: 20), regularContrast: Boundary(fall: 50, rise: 100))
        let harness = DaemonHarness(
            script: [(10, .signal(SIGHUP)), (30, .signal(SIGTERM))],
            reload: { () throws(ConfigFileErrors) in daemonConfiguration(thresholds: brighter) },
            light: { _ in 300 })
        try harness.daemon.run()
        #expect(harness.sink.events.filter { $0.kind == .change }.map(\.state) == [.regular, .contrast])
        #expect(harness.logLines.contains("<5>configuration reloaded\n"))
        #expect(!harness.sink.closed || harness.sink.events.count == 2)
    }

    @Test func sighupWithABrokenConfigurationKeepsTheOldOneRunning() throws {
        let harness = DaemonHarness(
            script: [(5, .signal(SIGHUP)), (20, .signal(SIGTERM))],
            reload: brokenReload("too short"),
            light: { time in time < 1010 ? 300 : 2 })
        try harness.daemon.run()
        #expect(
            harness.logLines.contains {
                $0.hasPrefix("<3>reload rejected, keeping the running configuration")
            })
        // Still sampling and switching on the old configuration after the failed reload.
        #expect(harness.sink.events.filter { $0.kind == .change }.map(\.state) == [.regular, .invert])
        #expect(harness.sensor.readTimes.last! > 1019)
    }

    @Test func stopsAtTheGivenEndForSimulations() throws {
        let harness = DaemonHarness(script: []) { _ in 300 }
        try harness.daemon.run(until: 1005)
        #expect(harness.clock.now == 1005)
        #expect(harness.sink.closed)
    }
}
