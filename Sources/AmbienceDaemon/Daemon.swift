import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceRecord
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

    struct Provider {
        let parts: Assemble
        let configuration: Reload
    }

    /// How often sinks are polled when samples are further apart: new pipe readers get their
    /// `current` line within this.
    static let pollInterval = 1.0

    var configuration: DaemonConfiguration
    let clock: any Clock
    /// The loop the daemon runs on, with whatever else a program adds to it.
    public let loop: EventLoop
    let logger: Logger
    /// What the configuration and the parts are made by, at start and again on SIGHUP.
    let provider: Provider
    /// The theme's override kept across restarts; each output keeps its own.
    private let overrides: OverridePersistence
    private var cadence: Cadence
    /// Why the loop was stopped, when it was by a failure.
    private var failure: DaemonError?
    var engine: Engine
    let outputs: DaemonOutputs
    var parts = DaemonParts()
    var said = LinesSaid()
    private var service: ServiceStatus
    private var sensor: SensorInput

    /// The recent samples, for `ambience record` (the control line `record`).
    public var record: LightRecord { outputs.record?.record ?? LightRecord(capacity: 0) }
    /// Where the record is persisted, if it is; made again on a reload.
    public var recordStore: RecordStore? { outputs.record?.store }

    public init(
        configuration: DaemonConfiguration, clock: any Clock, waiter: any LoopWaiting, logger: Logger,
        notifier: any ServiceNotifying = ServiceNotifier(environment: { _ in nil }),
        overrides: @escaping (DaemonConfiguration) -> OverrideStore? = {
            OverrideStore(directory: $0.stateDirectory)
        },
        wallClock: @escaping () -> Double = { WallClock.now },
        recordCapacity: Int = LightRecord.defaultCapacity,
        assemble: @escaping Assemble, reload: @escaping Reload
    ) {
        self.configuration = configuration
        self.clock = clock
        loop = EventLoop(waiter: waiter)
        cadence = Cadence(interval: configuration.engine.sampleInterval, start: clock.now)
        self.logger = logger
        let persistence = OverridePersistence(stores: overrides, wallClock: wallClock, logger: logger)
        self.overrides = persistence
        provider = Provider(parts: assemble, configuration: reload)
        engine = Engine(configuration: configuration.engine, startTime: clock.now)
        outputs = DaemonOutputs(
            OutputContext(
                logger: logger, overrides: persistence, wallClock: wallClock, recordCapacity: recordCapacity))
        service = ServiceStatus(notifier: notifier, clock: clock)
        sensor = SensorInput(logger: logger)
    }

    /// Runs until SIGTERM or SIGINT (or `until`, a monotonic time, for simulations); leaves every
    /// output off and released. Throws when the parts cannot be built at start, or cannot be
    /// rebuilt after a refused reload. Whatever else is added to `loop` (the simulator's typed
    /// lux) is served beside it.
    public func run(until end: Double? = nil) throws(DaemonError) {
        parts = try provider.parts(configuration, DaemonPart.all)
        defer { shutDown() }
        outputs.adopt(parts, rebuilt: DaemonPart.all)
        let start = CompactRecord.sampleTime(clock.now)
        engine = Engine(configuration: configuration.engine, startTime: start)
        for output in outputs.all { output.start(configuration, at: start) }
        restoreOverride(at: start)
        for output in outputs.all { output.restore(at: start) }
        cadence = Cadence(interval: configuration.engine.sampleInterval, start: start, end: end)
        failure = nil
        loop.add(self)
        defer { loop.remove(self) }
        loop.run()
        if let failure { throw failure }
    }

    public var interest: Interest {
        let watched = ((parts.control?.descriptor).map { [$0] } ?? []) + outputs.all.flatMap { $0.watched }
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
            } else {
                for output in outputs.all { output.read(descriptor, at: clock.now) }
            }
        }
        step()
    }

    /// Whatever is due: the sample, the engine's deadlines, the outputs; then when to wake next.
    private func step() {
        let now = clock.now
        if let end = cadence.end, now >= end {
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
        // The earliest of the outputs' dues, apart for those that may ride on a nearby wake-up.
        var outputsDue = Double.infinity
        var ridingDue = Double.infinity
        for output in outputs.all {
            let turn = output.advance(now: clock.now)
            if turn.hasNews { announceCurrent() }
            guard let due = turn.due else { continue }
            if turn.ridesOnNearbyWake {
                ridingDue = min(ridingDue, due)
            } else {
                outputsDue = min(outputsDue, due)
            }
        }
        // Sinks are polled at most a second apart. When samples come more often than that,
        // the poll rides on a sample's wake-up (due a sample early, so the gap stays within
        // the second) instead of waking the loop once more: a Pi running this for years
        // wakes only to sample.
        let pollRidesOnSamples = cadence.schedule.interval < Self.pollInterval
        if clock.now >= cadence.nextPoll {
            for output in outputs.all { output.poll(now: clock.now) }
            cadence.nextPoll =
                clock.now + Self.pollInterval - (pollRidesOnSamples ? cadence.schedule.interval : 0)
        }
        var deadline = cadence.measurementDue ?? cadence.schedule.due
        if let due = service.feedWatchdog() { deadline = min(deadline, due) }
        if !pollRidesOnSamples { deadline = min(deadline, cadence.nextPoll) }
        if let due = engine.nextDeadline, due < horizon { deadline = min(deadline, due) }
        deadline = min(deadline, outputsDue)
        // What may ride on a wake-up due within a microsecond after it wakes nothing of its own.
        if ridingDue < deadline - 1e-6 { deadline = ridingDue }
        if let end = cadence.end { deadline = min(deadline, end) }
        cadence.nextWake = deadline
    }

    /// Takes the measurement one step on; ingests it when it is done (or failed), stamped with
    /// its slot on `schedule`. Returns when to come back while the chip is converting, nil once
    /// the sample is in.
    private func measure(_ schedule: SampleSchedule) -> Double? {
        guard let device = parts.sensor else { return nil }
        let reading: Reading?
        switch sensor.measure(device) {
        case .pending(let deadline): return deadline
        case .done(let done): reading = done
        }
        // An override taken during the conversion has moved the engine past the slot.
        let time = max(schedule.stamp(completedAt: clock.now), engine.latestTime)
        if let lux = reading?.lux, lux.isFinite { said.lastLux = lux }
        let events = engine.ingest(Sample(time: time, lux: reading?.lux))
        var row = LightRecord.Row(
            time: time, lux: reading?.lux, filtered: engine.filteredLux, state: engine.state,
            isFaulted: engine.isFaulted, override: engine.activeOverride?.state)
        row.colour = reading?.colour
        // Before the events go out, so that they carry what the outputs made of the same sample.
        for output in outputs.all { output.observe(&row) }
        dispatch(events)
        for output in outputs.all { output.sampled(row) }
        return nil
    }

    private func dispatch(_ events: [Event]) {
        for var event in events {
            for output in outputs.all { output.annotate(&event) }
            EventWording.log(event, faultAfter: configuration.engine.faultAfter, to: logger)
            said.remember(event)
            for output in outputs.all { output.deliver(event) }
            service.announce(event, status: EventWording.status(of: engine))
        }
    }

    private func readControl() {
        guard let control = parts.control else { return }
        for input in control.read() {
            switch input {
            case .command(let command):
                dispatch(engine.apply(command, at: clock.now))
                overrides.save(command, in: configuration)
            case .rejected(let line, let reason):
                logger.log(.warning, "control: ignored '\(line)': \(reason)")
            default:
                for output in outputs.all where output.take(input, from: control, at: clock.now) { break }
            }
        }
    }

    /// Everything as it is now, as a reader that connects now would be told it: a `current`
    /// event for news that is not the theme's (a fade's end, the display asleep or awake).
    private func announceCurrent() {
        guard let state = engine.state else { return }
        let held = engine.activeOverride
        var current = Event(
            kind: .current, state: state, previous: nil, animated: false, reason: said.lastChange?.reason,
            lux: said.lastLux, filtered: engine.filteredLux, time: clock.now, override: held?.state,
            overrideUntil: held?.until, faulted: engine.isFaulted)
        for output in outputs.all { output.annotate(&current) }
        said.remember(current)
        for output in outputs.all { output.deliver(current) }
    }

    private func restoreOverride(at time: Double) {
        if let command = overrides.restore(Engine.OverrideCommand.self, in: configuration) {
            dispatch(engine.apply(command, at: time))
        }
    }

    private func shutDown() {
        service.stopping()
        for output in outputs.all { output.stop(at: clock.now) }
        parts.close(DaemonPart.all)
        parts = DaemonParts()
        outputs.adopt(parts, rebuilt: DaemonPart.all)
    }
}
