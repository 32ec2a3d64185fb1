import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon, a source of the event loop: samples on a fixed monotonic schedule, feeds the
/// engine, fans events out to every sink, and otherwise waits for the next deadline, a signal,
/// a control line or a touch.
/// Everything it touches is injected, so tests run it in simulated time.
public final class Daemon: EventSource {
    /// Builds the parts named, for a configuration; whatever it built before a failure it closes.
    public typealias Assemble = (DaemonConfiguration, Set<DaemonPart>) throws(DaemonError) -> DaemonParts
    public typealias Reload = () throws(ConfigFileErrors) -> DaemonConfiguration

    /// How often sinks are polled when samples are further apart: new pipe readers get their
    /// `current` line within this.
    static let pollInterval = 1.0

    private var configuration: DaemonConfiguration
    private let clock: any Clock
    /// The loop the daemon runs on, with whatever else a program adds to it.
    public let loop: EventLoop
    private let logger: Logger
    private let notifier: any ServiceNotifying
    private let assemble: Assemble
    private let reload: Reload
    private let overrides: OverridePersistence
    private var cadence: Cadence
    /// Where a simulation ends.
    private var end: Double?
    /// Why the loop was stopped, when it was by a failure.
    private var failure: DaemonError?

    private var engine: Engine
    private var brightness: BacklightDriver
    private var display: DisplaySleepDriver
    /// The display's power the event lines last carried, and what they last asked of a Wayland
    /// session's outputs.
    private var announcedDisplay: DisplayPower?
    private var announcedAsked: DisplayPower?
    /// `display.requests` when a line last carried the session's request.
    private var announcedRequests = 0
    /// The latest valid reading, for the lines that announce news between samples.
    private var lastLux: Double?
    private let wallClock: () -> Double
    private var records: RecordKeeper
    private var watchdog: WatchdogFeeder
    private var parts = DaemonParts()
    private var lastChange: Event?
    private var lastFault: Event?
    private var sensorTrouble: FaultReport
    private var isReady = false

    /// The recent samples, for `ambience record` (the control line `record`).
    public var record: LightRecord { records.record }
    /// Where the record is persisted, if it is; made again on a reload.
    public var recordStore: RecordStore? { records.store }

    public init(
        configuration: DaemonConfiguration, clock: any Clock, waiter: any LoopWaiting, logger: Logger,
        notifier: any ServiceNotifying = ServiceNotifier(environment: { _ in nil }),
        overrides: @escaping (DaemonConfiguration) -> OverrideStore? = {
            OverrideStore(directory: $0.stateDirectory)
        },
        wallClock: @escaping () -> Double = { WallClock.now },
        recordCapacity: Int = LightRecord.defaultCapacity,
        recordStores: @escaping (DaemonConfiguration) -> RecordStore? = { _ in nil },
        assemble: @escaping Assemble, reload: @escaping Reload
    ) {
        self.configuration = configuration
        self.clock = clock
        loop = EventLoop(waiter: waiter)
        cadence = Cadence(interval: configuration.engine.sampleInterval, start: clock.now)
        self.logger = logger
        self.notifier = notifier
        self.overrides = OverridePersistence(stores: overrides, wallClock: wallClock, logger: logger)
        self.assemble = assemble
        self.reload = reload
        engine = Engine(configuration: configuration.engine, startTime: clock.now)
        brightness = BacklightDriver(clock: clock)
        display = DisplaySleepDriver(log: { [logger] in logger.log(.notice, $0) })
        self.wallClock = wallClock
        records = RecordKeeper(capacity: recordCapacity, stores: recordStores, logger: logger)
        watchdog = WatchdogFeeder(notifier: notifier, clock: clock)
        sensorTrouble = FaultReport(
            log: { [logger] in logger.log(.error, $0) }, recovery: { [logger] in logger.log(.notice, $0) })
    }

    /// Runs until SIGTERM or SIGINT (or `until`, a monotonic time, for simulations); leaves every
    /// output off and released. Throws when the parts cannot be built at start, or cannot be
    /// rebuilt after a refused reload. Whatever else is added to `loop` (the simulator's typed
    /// lux) is served beside it.
    public func run(until end: Double? = nil) throws(DaemonError) {
        parts = try assemble(configuration, Set(DaemonPart.allCases))
        defer { shutDown() }
        let start = CompactRecord.sampleTime(clock.now)
        engine = Engine(configuration: configuration.engine, startTime: start)
        brightness.start(configuration.backlight)
        display.start(configuration.display)
        records.start(under: configuration, at: start)
        restoreOverride(at: start)
        restoreBrightnessOverride(at: start)
        restoreDisplayOverride(at: start)
        // The display as the engine wants it before the first line, which carries its power.
        _ = display.drive(parts.display, now: start)
        cadence = Cadence(interval: configuration.engine.sampleInterval, start: start)
        self.end = end
        failure = nil
        loop.add(self)
        defer { loop.remove(self) }
        loop.run()
        if let failure { throw failure }
    }

    public var interest: Interest {
        let watched = ((parts.control?.descriptor).map { [$0] } ?? []) + (parts.touch?.descriptors ?? [])
        return Interest(reading: watched, deadline: cadence.nextWake)
    }

    public func serve(_ wake: Wake) {
        switch wake {
        case .deadline, .writable:
            break
        case .signal(SIGHUP):
            do {
                try reloadConfiguration()
            } catch {
                failure = error
                loop.stop()
                return
            }
        case .signal(let number):
            logger.log(.notice, "signal \(number): shutting down")
            loop.stop()
            return
        case .readable(let descriptor):
            if descriptor == parts.control?.descriptor {
                readControl()
            } else if let touch = parts.touch, touch.descriptors.contains(descriptor) {
                if touch.read(descriptor) { display.touched(at: clock.now) }
            }
        }
        step()
    }

    /// Whatever is due: the sample, the engine's deadlines, the outputs; then when to wake next.
    private func step() {
        let now = clock.now
        if let end, now >= end {
            loop.stop()
            return
        }
        if now >= cadence.measurementDue ?? cadence.schedule.due {
            cadence.measurementDue = measure(cadence.schedule)
            if cadence.measurementDue == nil {
                if cadence.schedule.interval != configuration.engine.sampleInterval {  // reloaded
                    cadence.schedule.restart(interval: configuration.engine.sampleInterval, at: now)
                }
                cadence.schedule.advance(after: clock.now)
            }
        }
        // The engine goes no further than just before the slot of the sample to come, which it
        // will be given next: a fault or an override's end from that slot on is taken with
        // the sample (a sample right at the fault's deadline is in time).
        let horizon = cadence.schedule.due
        dispatch(engine.advance(to: min(clock.now, horizon.nextDown)))
        let backlightDue = driveBacklight()
        let displayDue = driveDisplay()
        // Sinks are polled at most a second apart. When samples come more often than that,
        // the poll rides on a sample's wake-up (due a sample early, so the gap stays within
        // the second) instead of waking the loop once more: a Pi running this for years
        // wakes only to sample.
        let pollRidesOnSamples = cadence.schedule.interval < Self.pollInterval
        if clock.now >= cadence.nextPoll {
            for sink in parts.sinks { sink.poll(now: clock.now) }
            cadence.nextPoll =
                clock.now + Self.pollInterval - (pollRidesOnSamples ? cadence.schedule.interval : 0)
        }
        var deadline = cadence.measurementDue ?? cadence.schedule.due
        if let due = watchdog.feed() { deadline = min(deadline, due) }
        if !pollRidesOnSamples { deadline = min(deadline, cadence.nextPoll) }
        if let due = engine.nextDeadline, due < horizon { deadline = min(deadline, due) }
        for due in [displayDue, display.nextDeadline].compactMap({ $0 }) { deadline = min(deadline, due) }
        // A ramp step due with the sample (10 %/s at 10 Hz) is taken at the sample: no
        // wake-up of its own for a step that sums its tenths another way.
        if let due = backlightDue, due < deadline - 1e-6 { deadline = due }
        if let end { deadline = min(deadline, end) }
        cadence.nextWake = deadline
    }

    /// Takes the measurement one step on; ingests it when it is done (or failed), stamped with
    /// its slot on `schedule`. Returns when to come back while the chip is converting, nil once
    /// the sample is in.
    private func measure(_ schedule: SampleSchedule) -> Double? {
        guard let sensor = parts.sensor else { return nil }
        let reading: Reading?
        do {
            switch try sensor.measure() {
            case .pending(let deadline): return deadline
            case .reading(let done): reading = done
            }
            sensorTrouble.succeeded("\(sensor.description): reading again")
        } catch {
            reading = nil
            // The same trouble is logged once, however often the retries fail.
            var quiet = error
            quiet.retryAt = nil
            sensorTrouble.failed(quiet.description)
        }
        // An override taken during the conversion has moved the engine past the slot.
        let time = max(schedule.stamp(completedAt: clock.now), engine.latestTime)
        if let lux = reading?.lux, lux.isFinite { lastLux = lux }
        let events = engine.ingest(Sample(time: time, lux: reading?.lux))
        // Before the events go out, so that they carry the brightness of the same sample.
        brightness.ingest(lux: reading?.lux, state: engine.state, at: time)
        if display.isConfigured {
            display.ingest(
                lux: reading?.lux, filtered: engine.filteredLux, at: time,
                minuteOfDay: configuration.display?.sleep.awake.isEmpty == false
                    ? WallClock.minuteOfDay(wallClock()) : nil)
        }
        dispatch(events)
        records.append(
            LightRecord.Row(
                time: time, lux: reading?.lux, filtered: engine.filteredLux, state: engine.state,
                isFaulted: engine.isFaulted, override: engine.activeOverride?.state,
                brightness: brightness.output),
            under: configuration)
        return nil
    }

    private func dispatch(_ events: [Event]) {
        for var event in events {
            event.brightness = brightness.announce()
            announceDisplay(on: &event)
            EventWording.log(event, faultAfter: configuration.engine.faultAfter, to: logger)
            switch event.kind {
            // A `current` event from the engine is an override begun or ended without a change.
            case .change, .current: lastChange = event
            case .fault: lastFault = event
            case .recovered: lastFault = nil
            }
            for sink in parts.sinks { sink.deliver(event) }
            if !isReady, event.kind == .change || event.kind == .fault {
                isReady = true
                notifier.notify("READY=1\nSTATUS=\(EventWording.status(of: engine))")
            } else if event.kind != .current {
                notifier.notify("STATUS=\(EventWording.status(of: engine))")
            }
        }
    }

    private func readControl() {
        for input in parts.control?.read() ?? [] {
            switch input {
            case .command(let command):
                dispatch(engine.apply(command, at: clock.now))
                overrides.save(command, in: configuration)
            case .brightness(let command):
                guard brightness.isConfigured else {
                    logger.log(.warning, "control: ignored a brightness line: no [backlight] is configured")
                    continue
                }
                brightness.apply(command, at: clock.now)
                logger.log(.notice, "backlight: \(command.logged)")
                overrides.save(command, in: configuration)
            case .display(let command):
                guard display.isConfigured else {
                    logger.log(.warning, "control: ignored a display line: no [display] is configured")
                    continue
                }
                display.apply(command, at: clock.now)
                logger.log(.notice, "display: \(command.logged)")
                overrides.save(command, in: configuration)
            case .outputs(let power):
                guard parts.display?.told(power) == true else {
                    logger.log(
                        .warning,
                        "control: ignored '\(ControlLine.outputs(power))': [display] device is not \"wayland\""
                    )
                    continue
                }
            case .record:
                do {
                    try parts.control?.writeRecord(records.record)
                } catch {
                    logger.log(.error, "record not written: \(error)")
                }
            case .rejected(let line, let reason):
                logger.log(.warning, "control: ignored '\(line)': \(reason)")
            }
        }
    }

    /// Drives the backlight (see `BacklightDriver.drive`); a fade's end goes out as the state
    /// as it is now, to every sink.
    private func driveBacklight() -> Double? {
        let (due, fadeEnded) = brightness.drive(parts.backlight)
        if fadeEnded { announceCurrent() }
        return due
    }

    /// Drives the display's power (see `DisplaySleepDriver.drive`); a change of what the device
    /// says goes out as the state as it is now, to every sink.
    private func driveDisplay() -> Double? {
        let due = display.drive(parts.display, now: clock.now)
        // Asleep, every touch is the display's alone; awake, the grab lasts until the fingers lift.
        if display.wish == .off {
            parts.touch?.grabAll()
        } else if parts.touch?.isTouching == false {
            parts.touch?.releaseAll()
        }
        let askedAgain = askedOfSession != nil && display.requests != announcedRequests
        if display.reported(by: parts.display) != announcedDisplay || askedOfSession != announcedAsked
            || askedAgain
        {
            announceCurrent()
        }
        return due
    }

    /// Puts the display's power, and what is asked of a session's outputs, on a line about to go
    /// out, and remembers them as the lines' last word.
    private func announceDisplay(on event: inout Event) {
        event.display = display.reported(by: parts.display)
        event.displayAsked = askedOfSession
        announcedDisplay = event.display
        announcedAsked = event.displayAsked
        announcedRequests = display.requests
    }

    /// What the lines ask of a Wayland session's outputs; nil for every other display.
    private var askedOfSession: DisplayPower? {
        configuration.displayDevice == .session ? display.request : nil
    }

    /// Everything as it is now, as a reader that connects now would be told it: a `current`
    /// event for news that is not the theme's (a fade's end, the display asleep or awake).
    private func announceCurrent() {
        guard let state = engine.state else { return }
        let now = clock.now
        let held = engine.activeOverride
        var current = Event(
            kind: .current, state: state, previous: nil, animated: false, reason: lastChange?.reason,
            lux: lastLux, filtered: engine.filteredLux, time: now, override: held?.state,
            overrideUntil: held?.until, faulted: engine.isFaulted, brightness: brightness.output)
        current.brightness = brightness.announce()
        announceDisplay(on: &current)
        lastChange = current
        for sink in parts.sinks { sink.deliver(current) }
    }

    private func restoreDisplayOverride(at time: Double) {
        guard display.isConfigured else { return }
        if let command = overrides.restore(DisplaySleepEngine.Command.self, in: configuration) {
            display.apply(command, at: time)
        }
    }

    private func restoreOverride(at time: Double) {
        if let command = overrides.restore(Engine.OverrideCommand.self, in: configuration) {
            dispatch(engine.apply(command, at: time))
        }
    }

    private func restoreBrightnessOverride(at time: Double) {
        guard brightness.isConfigured else { return }
        if let command = overrides.restore(BrightnessEngine.Command.self, in: configuration) {
            brightness.apply(command, at: time)
        }
    }

    /// SIGHUP: a valid new configuration takes over without a restart, rebuilding only the parts
    /// whose settings changed; an invalid one, or one whose devices refuse it, is logged with
    /// its FILE:LINE: KEY lines and the running one kept. Throws when not even the running
    /// configuration's parts can be built again: a daemon without them would do nothing.
    private func reloadConfiguration() throws(DaemonError) {
        let next: DaemonConfiguration
        do {
            next = try reload()
        } catch {
            logRejectedReload(error.errors.map { $0.description })
            return
        }
        let changed = DaemonPart.changed(from: configuration, to: next)
        if !changed.isEmpty {
            // The old parts let go first: the new ones may want the same lines and pipes.
            parts.close(changed)
            do {
                parts.replace(changed, with: try assemble(next, changed))
            } catch {
                logRejectedReload(Self.lines(of: error))
                do {
                    parts.replace(changed, with: try assemble(configuration, changed))
                } catch {
                    logger.log(.error, "the running configuration's parts could not be rebuilt either:")
                    for line in Self.lines(of: error) { logger.log(.error, line) }
                    throw .partsLost(error.description)
                }
                replayCurrentState(to: changed)
                return
            }
        }
        records.reload(from: configuration, to: next, at: clock.now)
        configuration = next
        engine.reconfigure(next.engine)
        let hadDisplay = display.isConfigured
        display.reconfigure(next.display)
        if !hadDisplay, display.isConfigured { restoreDisplayOverride(at: clock.now) }
        let hadBacklight = brightness.isConfigured
        brightness.reconfigure(next.backlight)
        if !hadBacklight, brightness.isConfigured { restoreBrightnessOverride(at: clock.now) }
        replayCurrentState(to: changed)
        logger.log(.notice, "configuration reloaded")
    }

    private func logRejectedReload(_ lines: [String]) {
        logger.log(.error, "reload rejected, keeping the running configuration:")
        for line in lines { logger.log(.error, line) }
    }

    private static func lines(of error: DaemonError) -> [String] {
        if case .configuration(let errors) = error { return errors.errors.map { $0.description } }
        return [error.description]
    }

    /// New sinks start blank: give them the state (and any fault) they should show.
    private func replayCurrentState(to rebuilt: Set<DaemonPart>) {
        for event in [lastChange, lastFault].compactMap({ $0 }) {
            for sink in parts.sinks(of: rebuilt) { sink.deliver(event) }
        }
    }

    private func shutDown() {
        notifier.notify("STOPPING=1")
        records.persist(at: clock.now, under: configuration)
        // A daemon that stops leaves the display awake: nothing would wake it otherwise.
        parts.display?.set(power: .on, now: clock.now)
        parts.close(Set(DaemonPart.allCases))
        parts = DaemonParts()
    }
}
