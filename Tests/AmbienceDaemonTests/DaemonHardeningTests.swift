import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What systemd would have been told, and when (on `clock`, when given).
final class RecordingNotifier: ServiceNotifying {
    let watchdogInterval: Double?
    private let clock: (any Clock)?
    private(set) var messages: [String] = []
    private(set) var times: [Double] = []

    init(watchdogInterval: Double? = nil, clock: (any Clock)? = nil) {
        self.watchdogInterval = watchdogInterval
        self.clock = clock
    }

    /// The interval as the real notifier reads it from `environment`, for this process.
    convenience init(environment: [String: String], clock: any Clock) {
        self.init(
            watchdogInterval: ServiceNotifier(environment: { environment[$0] }).watchdogInterval, clock: clock
        )
    }

    func notify(_ message: String) {
        messages.append(message)
        times.append(clock?.now ?? .nan)
    }

    /// When each WATCHDOG=1 was sent.
    var watchdogTimes: [Double] { zip(messages, times).filter { $0.0 == "WATCHDOG=1" }.map(\.1) }
}

/// Real parts in a scratch directory: an emulated BH1750 on a mock bus, fake GPIO chips, and the
/// real pipes, state file and control pipe, assembled as `run` assembles them.
final class RealPartsRig {
    let clock = ManualClock(now: 100)
    let directory = TemporaryDirectory()
    let bus: MockI2CBus
    let gpio = FakeGPIO(chips: [FakeGPIO.Chip(name: "gpiochip0", label: "test", lineCount: 8)])
    let log = LogRecorder()
    var busOpenings = 0

    init() {
        bus = MockI2CBus(clock: clock)
        bus.attach(BH1750Emulator { _ in 300 }, at: 0x23)
    }

    func configuration(pipeMode: UInt32 = 0o660, gpio lines: [AmbienceState: UInt32] = [.regular: 1])
        -> DaemonConfiguration
    {
        DaemonConfiguration(
            sensor: .init(kind: .bh1750, settings: [.bh1750(try! BH1750.Settings(mode: .fixed(.high)))]),
            engine: daemonConfiguration().engine,
            gpio: GPIOIndicator.Configuration(chip: "gpiochip0", lines: lines),
            pipes: .init(paths: [directory.path + "/state"], mode: pipeMode),
            stateFile: directory.path + "/state.json", controlPipe: directory.path + "/control",
            stateDirectory: directory.path + "/lib")
    }

    func assemble(_ configuration: DaemonConfiguration, _ parts: Set<DaemonPart>) throws(DaemonError)
        -> DaemonParts
    {
        try Assembly.parts(
            configuration, parts,
            devices: MachineDevices(
                clock: clock, logger: Logger(prefixed: true, write: log.record), gpio: gpio,
                openBus: { [self] _ throws(I2CError) in
                    busOpenings += 1
                    return bus
                }))
    }

    func daemon(
        script: [(time: Double, wake: Wake)], reload: @escaping Daemon.Reload,
        notifier: RecordingNotifier = RecordingNotifier()
    ) -> Daemon {
        Daemon(
            configuration: configuration(), clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: script.map { (100 + $0.time, $0.wake) }),
            logger: Logger(prefixed: true, write: log.record), notifier: notifier, overrides: { _ in nil },
            assemble: { [self] configuration, parts throws(DaemonError) in try assemble(configuration, parts)
            },
            reload: reload)
    }
}

@Suite struct DaemonReloadTests {
    @Test func aNewPipeModeRebuildsThePipesAloneNeverTheSensorOrTheLines() throws {
        let rig = RealPartsRig()
        var writesAtReload = -1
        var linesAtReload = -1
        let next = rig.configuration(pipeMode: 0o640)
        let daemon = rig.daemon(
            script: [(5, .signal(SIGHUP)), (10, .signal(SIGTERM))],
            reload: { () throws(ConfigFileErrors) in
                writesAtReload = rig.bus.writes.count
                linesAtReload = rig.gpio.chips[0].history.count
                return next
            })
        try daemon.run()
        #expect(rig.log.lines.contains("<5>configuration reloaded\n"))
        #expect(writesAtReload > 0 && linesAtReload > 0)
        let gpioHistory = rig.gpio.chips[0].history
        // Nothing was said to the chip after the reload: it was not initialised again.
        #expect(rig.bus.writes.count == writesAtReload, "\(rig.bus.writes.dropFirst(writesAtReload))")
        #expect(rig.busOpenings == 1)
        // The lines did not blink: from the reload to the shutdown, only the final off.
        #expect(Array(gpioHistory.dropFirst(linesAtReload)) == [.init(offset: 1, high: false)])
        // The pipes were rebuilt with the new mode.
        #expect(rig.directory.mode(of: "state") == 0o640)
    }

    @Test func aNewSensorSettingRebuildsTheSensorAloneNeverTheLines() throws {
        let rig = RealPartsRig()
        var next = rig.configuration()
        next.sensor[BH1750.Settings.self] = try .init(mode: .fixed(.high2))
        var linesAtReload = -1
        let daemon = rig.daemon(
            script: [(5, .signal(SIGHUP)), (10, .signal(SIGTERM))],
            reload: { () throws(ConfigFileErrors) in
                linesAtReload = rig.gpio.chips[0].history.count
                return next
            })
        try daemon.run()
        #expect(rig.busOpenings == 2)
        #expect(rig.bus.writes.contains { $0.bytes == [0x11] }, "the new mode was sent")
        #expect(Array(rig.gpio.chips[0].history.dropFirst(linesAtReload)) == [.init(offset: 1, high: false)])
    }

    @Test func aRejectedReloadIsLoggedAsTheLinesCheckPrints() throws {
        let harness = DaemonHarness(
            script: [(5, .signal(SIGHUP)), (8, .signal(SIGTERM))],
            reload: brokenReload("L (10 s) is too short"),
            light: { _ in 300 })
        try harness.daemon.run()
        #expect(harness.logLines.contains("<3>reload rejected, keeping the running configuration:\n"))
        #expect(
            harness.logLines.contains(
                "<3>/etc/ambience/ambience.toml:3: timing.latency: L (10 s) is too short\n"))
        #expect(
            !harness.logLines.contains { $0.contains("CommandFailure") || $0.contains("ConfigFileError(") })
    }

    @Test func aDeviceRefusalOnReloadKeepsTheRunningPartsAndSaysWhere() throws {
        let rig = RealPartsRig()
        var next = rig.configuration()
        next.gpio = GPIOIndicator.Configuration(chip: "gpiochip7", lines: [.regular: 1])
        next.origins = ConfigurationOrigins(
            byKey: ["gpio.chip": ConfigurationOrigin(file: "/etc/ambience/ambience.toml", line: 12)],
            file: "/etc/ambience/ambience.toml")
        let daemon = rig.daemon(
            script: [(5, .signal(SIGHUP)), (10, .signal(SIGTERM))],
            reload: { () throws(ConfigFileErrors) in next })
        try daemon.run()
        #expect(rig.log.lines.contains { $0.hasPrefix("<3>/etc/ambience/ambience.toml:12: gpio.chip: ") })
        // The running configuration's lines came back and show the state again.
        #expect(
            rig.gpio.chips[0].history.suffix(2) == [
                .init(offset: 1, high: true), .init(offset: 1, high: false),
            ])
    }

    @Test func partsThatCannotBeRestoredEndTheDaemonWithTheReason() throws {
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock) { _ in 300 }
        let log = LogRecorder()
        let notifier = RecordingNotifier(watchdogInterval: 4)
        var pipeBuilds = 0
        var next = daemonConfiguration()
        next.pipes.mode = 0o640
        let daemon = Daemon(
            configuration: daemonConfiguration(), clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: [(5, .signal(SIGHUP)), (60, .signal(SIGTERM))]),
            logger: Logger(prefixed: true, write: log.record), notifier: notifier, overrides: { _ in nil },
            assemble: { _, parts throws(DaemonError) in
                if parts.contains(.pipes) {
                    pipeBuilds += 1
                    if pipeBuilds > 1 { throw .unavailable("/run/ambience/state: permission denied") }
                }
                return DaemonParts.of(sensor: sensor, pipes: [RecordingSink()])
            },
            reload: { () throws(ConfigFileErrors) in next })
        #expect {
            try daemon.run()
        } throws: { error in
            guard let error = error as? DaemonError, case .partsLost(let why) = error else { return false }
            return why.contains("permission denied")
        }
        #expect(clock.now < 6, "stopped at the failed reload, not at SIGTERM")
        #expect(log.lines.contains("<3>the running configuration's parts could not be rebuilt either:\n"))
        #expect(log.lines.contains("<3>/run/ambience/state: permission denied\n"))
        #expect(notifier.messages.last == "STOPPING=1")
    }
}

/// A state directory that cannot be written (a read-only root): the daemon runs, warns once
/// where its state now lives, and keeps the override and the record there.
@Suite struct ReadOnlyStateDirectoryTests {
    @Test func theOverrideAndTheRecordGoToRAMWithOneWarning() throws {
        let directory = TemporaryDirectory()
        // A file where /var/lib/ambience should be: root cannot write past it either.
        let configured = directory.file("lib")
        try FileDescriptor.open(configured, O_WRONLY | O_CREAT).close()
        var configuration = daemonConfiguration(interval: 1)
        configuration.stateDirectory = configured
        configuration.controlPipe = directory.file("run/control")
        configuration.record = .init(flushInterval: 2)
        let control = try ControlPipe(path: configuration.controlPipe, log: { _ in })
        let writer = try FileDescriptor.open(configuration.controlPipe, O_WRONLY | O_NONBLOCK)
        defer { writer.close() }
        try writer.writeAll("override contrast\n")
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in 300 }
        let log = LogRecorder()
        let logger = Logger(prefixed: true, write: log.record)
        let state = StateDirectory(log: { logger.log(.warning, $0) })
        // The record's store as `run` builds it; the sensor and the control pipe the test's.
        let devices = MachineDevices(clock: clock, logger: logger, state: state)
        let daemon = Daemon(
            configuration: configuration, clock: clock,
            waiter: ScriptedWaiter(
                clock: clock,
                script: [
                    (1.5, .readable(control.descriptor!)), (3.5, .signal(SIGHUP)), (8, .signal(SIGTERM)),
                ]),
            logger: logger, overrides: { OverrideStore(directory: $0.storing(in: state).stateDirectory) },
            assemble: { configuration, _ throws(DaemonError) in
                var parts = try Assembly.parts(configuration, [.record], devices: devices)
                parts.sensor = sensor
                parts.control = control
                return parts
            },
            reload: { () throws(ConfigFileErrors) in configuration })
        try daemon.run()
        let fallback = directory.file("run/lib")
        #expect(try FileSystem.firstLine(of: fallback + "/override") == "contrast")
        #expect(try FileSystem.contents(of: fallback + "/record.csv").count > 0)
        let warnings = log.lines.filter { $0.hasPrefix("<4>") }
        #expect(warnings.count == 1, "\(log.lines)")
        #expect(warnings.first?.contains("kept in \(fallback) instead, in RAM") == true, "\(warnings)")
        #expect(
            !log.lines.contains { $0.hasPrefix("<3>") }, "no error for the lost persistence: \(log.lines)")
        #expect((try FileSystem.status(of: configured)).isDirectory == false, "the file was left alone")
    }
}

@Suite struct DaemonWaitTests {
    @Test func anOverrideDuringAConversionActsAtOnce() throws {
        let directory = TemporaryDirectory()
        let control = try ControlPipe(path: directory.path + "/control", log: { _ in })
        let writer = try FileDescriptor.open(directory.path + "/control", O_WRONLY | O_NONBLOCK)
        defer { writer.close() }
        try writer.writeAll("override contrast\n")
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0.8) { _ in 300 }
        let sink = RecordingSink()
        let daemon = Daemon(
            configuration: daemonConfiguration(interval: 1), clock: clock,
            waiter: ScriptedWaiter(
                clock: clock,
                script: [(1.5, .readable(control.descriptor!)), (3, .signal(SIGTERM))]),
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor, pipes: [sink], control: control) },
            reload: brokenReload("no reload"))
        try daemon.run()
        // Samples begin at 0, 1, 2 and each converts for 0.8 s; the override came at 1.5, while
        // the second conversion was under way, and acted then.
        #expect(sensor.readTimes == [0, 1, 2])
        let override = sink.events.first { $0.reason == .override }
        #expect(override?.time == 1.5 && override?.state == .contrast)
        #expect(sensor.doneTimes.allSatisfy { abs($0 - $0.rounded(.down) - 0.8) < 1e-9 })
    }

    @Test func aSignalDuringAConversionIsHandledAtOnce() throws {
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0.7) { _ in 300 }
        let daemon = Daemon(
            configuration: daemonConfiguration(interval: 1), clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: [(0.2, .signal(SIGTERM))]),
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor) }, reload: brokenReload("no reload"))
        try daemon.run()
        #expect(clock.now == 0.2)
        #expect(sensor.doneTimes.isEmpty)
    }

    @Test func inputAtItsEndIsWatchedNoMore() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let input = FileDescriptor(rawValue: ends[0])
        defer { input.close() }
        close(ends[1])  // the writer is gone: poll reports the read end forever
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in 300 }
        let waiter = PollingWaiter(clock: clock)
        let daemon = Daemon(
            configuration: daemonConfiguration(interval: 1), clock: clock, waiter: waiter,
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor) }, reload: brokenReload("no reload"))
        var handled = 0
        daemon.loop.add(
            InputSource(input) {
                handled += 1
                var byte: UInt8 = 0
                return read(input.rawValue, &byte, 1) > 0
            })
        try daemon.run(until: 10)
        #expect(handled == 1)
        #expect(waiter.readableWakes == 1)
        #expect(sensor.readTimes.count == 10)
    }
}

/// Reports a watched descriptor readable when poll(2) says so (at once, without waiting), and
/// otherwise moves simulated time to the deadline. Gives up with SIGTERM after 1000 readable
/// wakes in a row, so a loop that would spin ends the test instead of hanging it.
final class PollingWaiter: LoopWaiting {
    let clock: ManualClock
    private(set) var readableWakes = 0
    private var inARow = 0

    init(clock: ManualClock) { self.clock = clock }

    func wait(until deadline: Double, reading descriptors: [FileDescriptor], writing: [FileDescriptor])
        -> Wake
    {
        var polled = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        if !polled.isEmpty, poll(&polled, nfds_t(polled.count), 0) > 0,
            let ready = polled.first(where: { $0.revents != 0 })
        {
            readableWakes += 1
            inARow += 1
            return inARow > 1000 ? .signal(SIGTERM) : .readable(FileDescriptor(rawValue: ready.fd))
        }
        inARow = 0
        clock.sleep(until: deadline)
        return .deadline
    }
}

@Suite struct ServiceNotificationTests {
    @Test func systemdHearsReadyStatusWatchdogAndStopping() throws {
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { time in time < 10 ? 300 : 2 }
        let notifier = RecordingNotifier(watchdogInterval: 4)
        let daemon = Daemon(
            configuration: daemonConfiguration(interval: 0.5), clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: [(20, .signal(SIGTERM))]),
            logger: Logger(prefixed: true, write: { _ in }), notifier: notifier, overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor) }, reload: brokenReload("no reload"))
        try daemon.run()
        let messages = notifier.messages
        #expect(messages.first == "READY=1\nSTATUS=regular, 300 lux")
        #expect(messages.filter { $0.hasPrefix("READY=1") }.count == 1)
        #expect(messages.contains { $0.hasPrefix("STATUS=invert") })
        #expect(messages.last == "STOPPING=1")
        // A quarter of the watchdog interval: every 1 s over 20 s of samples.
        let watchdogs = messages.filter { $0 == "WATCHDOG=1" }.count
        #expect((19...21).contains(watchdogs))
    }

    /// The daemon with `[sensor] interval = 15` and the watchdog variables of `environment`, on
    /// `clock`, until SIGTERM at `end`.
    private func runSampling15SecondsApart(
        environment: [String: String], until end: Double, clock: ManualClock = ManualClock(now: 0),
        light: @escaping (Double) -> Double? = { _ in 300 }
    ) throws -> (sensor: FakeSensor, notifier: RecordingNotifier) {
        let sensor = FakeSensor(clock: clock, conversion: 0, light: light)
        let notifier = RecordingNotifier(environment: environment, clock: clock)
        let daemon = Daemon(
            configuration: daemonConfiguration(interval: 15, faultAfter: 45), clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: [(end, .signal(SIGTERM))]),
            logger: Logger(prefixed: true, write: { _ in }), notifier: notifier, overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor) }, reload: brokenReload("no reload"))
        try daemon.run()
        return (sensor, notifier)
    }

    /// `[sensor] interval = 15` under the shipped unit's WatchdogSec=10: the loop feeds the
    /// watchdog between samples, at most half its interval apart.
    @Test func theWatchdogIsFedBetweenSamplesFurtherApartThanItsInterval() throws {
        // Six hours of simulated time: a slow, calm kiosk's night.
        let end = 6 * 3600.0
        let (sensor, notifier) = try runSampling15SecondsApart(
            environment: ["WATCHDOG_USEC": "10000000"], until: end)
        #expect(sensor.readTimes == stride(from: 0.0, to: end, by: 15).map { $0 }, "sampled as configured")
        let pings = notifier.watchdogTimes
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        #expect(pings.first == 0)
        #expect(gaps.allSatisfy { $0 <= 5 + 1e-9 }, "\(gaps.max() ?? 0)")
        #expect(end - (pings.last ?? 0) <= 5 + 1e-9, "\(pings.last ?? 0)")
        // Not a ping per wake-up either: a quarter of the interval apart at least.
        #expect(gaps.allSatisfy { $0 >= 2.5 - 1e-9 }, "\(gaps.min() ?? 0)")
    }

    /// The pings come from the loop, not from a thread beside it: a loop stuck in a read that
    /// takes 20 s sends nothing meanwhile, so systemd sees the hang.
    @Test func aStuckLoopFeedsNoWatchdog() throws {
        let clock = ManualClock(now: 0)
        var stuck = false
        let (_, notifier) = try runSampling15SecondsApart(
            environment: ["WATCHDOG_USEC": "10000000"], until: 80, clock: clock
        ) { time in
            if time >= 30, !stuck {
                stuck = true
                clock.advance(by: 20)
            }
            return 300
        }
        let pings = notifier.watchdogTimes
        #expect(stuck)
        #expect(!pings.contains { $0 > 30 && $0 < 50 }, "\(pings)")
        #expect(pings.contains(50), "fed again as soon as the loop went on: \(pings)")
    }

    /// sd_watchdog_enabled(3): a WATCHDOG_PID that is not this process is another's watchdog.
    @Test func anotherProcesssWatchdogIsNotFed() throws {
        for (owner, fed) in [(getpid() + 1, false), (getpid(), true)] {
            let (_, notifier) = try runSampling15SecondsApart(
                environment: ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": String(owner)], until: 60)
            #expect(
                notifier.watchdogTimes.isEmpty == !fed, "WATCHDOG_PID \(owner): \(notifier.watchdogTimes)")
            #expect(notifier.messages.first?.hasPrefix("READY=1") == true)
        }
    }

    @Test func aSensorAbsentAtStartIsReadyAtItsFirstFault() throws {
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in nil }
        let notifier = RecordingNotifier()
        let daemon = Daemon(
            configuration: daemonConfiguration(), clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: [(10, .signal(SIGTERM))]),
            logger: Logger(prefixed: true, write: { _ in }), notifier: notifier, overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor) }, reload: brokenReload("no reload"))
        try daemon.run()
        #expect(notifier.messages.first == "READY=1\nSTATUS=no state yet, sensor fault")
    }
}

@Suite struct ControlPipeAccessTests {
    @Test func theControlPipeKeepsItsOwnModeApartFromTheStatePipes() throws {
        let rig = RealPartsRig()
        let parts = try rig.assemble(rig.configuration(), DaemonPart.all)
        defer { parts.close(DaemonPart.all) }
        #expect(rig.directory.mode(of: "state") == 0o660)
        #expect(rig.directory.mode(of: "control") == 0o600)
    }

    @Test func aConfiguredControlModeIsUsed() throws {
        let rig = RealPartsRig()
        var configuration = rig.configuration()
        configuration.controlMode = 0o620
        let parts = try rig.assemble(configuration, [.control])
        defer { parts.close([.control]) }
        #expect(rig.directory.mode(of: "control") == 0o620)
        #expect(parts.pipes.isEmpty && parts.sensor == nil, "only the part asked for")
    }

    @Test func outputsNameTheirFieldsAndTheConfigurationPlacesThemAtItsKeys() throws {
        let rig = RealPartsRig()
        var configuration = rig.configuration()
        configuration.controlGroup = "no-such-group-ambience"
        configuration.pipes.group = "no-such-group-ambience"
        configuration.gpio = GPIOIndicator.Configuration(chip: "gpiochip0", lines: [.regular: 9])
        for (part, key) in [
            (DaemonPart.control, "control_group"), (.pipes, "pipes.group"),
            (.indicators, "gpio.lines.regular"),
        ] {
            #expect {
                _ = try rig.assemble(configuration, [part])
            } throws: { error in
                refusedKeys(error) == [key]
            }
        }
    }
}
