import AmbienceCore
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// What the loop waits with: signals, readable descriptors and deadlines for real, or a
/// script in tests.
public protocol LoopWaiting: AnyObject {
    func wait(until deadline: Double, descriptors: [FileDescriptor]) -> SignalWaiter.Wake
}

/// The parts a configuration decides: built at start, rebuilt on reload when their settings change.
public struct DaemonParts {
    public var sensor: any LightSensor
    public var sinks: [any Sink]
    public var control: ControlPipe?

    public init(sensor: any LightSensor, sinks: [any Sink], control: ControlPipe?) {
        self.sensor = sensor
        self.sinks = sinks
        self.control = control
    }

    func close() {
        for sink in sinks { sink.close() }
        control?.close()
    }
}

/// The daemon's loop: samples on a fixed monotonic schedule, feeds the engine, fans events out
/// to every sink, and otherwise waits for the next deadline, a signal or a control line.
/// Everything it touches is injected, so tests run it in simulated time.
public final class Daemon {
    public typealias Assemble = (DaemonConfiguration) throws -> DaemonParts
    public typealias Reload = () throws -> DaemonConfiguration

    /// How often sinks are polled when samples are further apart: new pipe readers get their
    /// `current` line within this.
    static let pollInterval = 1.0

    private var configuration: DaemonConfiguration
    private let clock: any Clock
    private let waiter: any LoopWaiting
    private let logger: Logger
    private let notifier: ServiceNotifier
    private let assemble: Assemble
    private let reload: Reload
    private let overrides: (DaemonConfiguration) -> OverrideStore?
    private let wallClock: () -> Double
    private var inputs: [(descriptor: FileDescriptor, handle: () -> Void)] = []

    private var engine: Engine
    private var parts: DaemonParts?
    private var lastChange: Event?
    private var lastFault: Event?
    private var sensorTrouble: FaultReport
    private var isReady = false
    private var lastWatchdog = -Double.infinity

    public init(
        configuration: DaemonConfiguration, clock: any Clock, waiter: any LoopWaiting, logger: Logger,
        notifier: ServiceNotifier = ServiceNotifier(environment: { _ in nil }),
        overrides: @escaping (DaemonConfiguration) -> OverrideStore? = {
            OverrideStore(directory: $0.stateDirectory)
        },
        wallClock: @escaping () -> Double = { WallClock.now },
        assemble: @escaping Assemble, reload: @escaping Reload
    ) {
        self.configuration = configuration
        self.clock = clock
        self.waiter = waiter
        self.logger = logger
        self.notifier = notifier
        self.overrides = overrides
        self.wallClock = wallClock
        self.assemble = assemble
        self.reload = reload
        engine = Engine(configuration: configuration.engine, startTime: clock.now)
        sensorTrouble = FaultReport(
            log: { [logger] in logger.log(.error, $0) }, recovery: { [logger] in logger.log(.notice, $0) })
    }

    /// Adds a descriptor the loop watches, with what to do when it is readable (the simulator's
    /// typed lux, say).
    public func watch(_ descriptor: FileDescriptor, _ handle: @escaping () -> Void) {
        inputs.append((descriptor, handle))
    }

    /// Runs until SIGTERM or SIGINT (or `until`, a monotonic time, for simulations); leaves every
    /// output off and released. Throws only when the parts cannot be built at start.
    public func run(until end: Double? = nil) throws {
        parts = try assemble(configuration)
        defer { shutDown() }
        let start = clock.now
        engine = Engine(configuration: configuration.engine, startTime: start)
        restoreOverride(at: start)
        var interval = configuration.engine.sampleInterval
        var anchor = start
        var slot = 0
        var nextSample = start
        var nextPoll = start
        while true {
            let now = clock.now
            if let end, now >= end { return }
            if now >= nextSample {
                sample()
                // A fixed schedule of whole slots from `start`: no drift, and a slow read skips
                // slots rather than bunching. Counting slots, not dividing times, so that 4.1 / 0.1
                // coming out as 40.999… can never schedule the same slot again.
                if interval != configuration.engine.sampleInterval {  // reloaded: a new schedule from now
                    interval = configuration.engine.sampleInterval
                    anchor = now
                    slot = 0
                }
                let elapsedSlots = Int(((clock.now - anchor) / interval).rounded(.down))
                slot = max(slot + 1, elapsedSlots + 1)
                nextSample = anchor + Double(slot) * interval
            }
            dispatch(engine.advance(to: clock.now))
            // Sinks are polled at most a second apart. When samples come more often than that,
            // the poll rides on a sample's wake-up (due a sample early, so the gap stays within
            // the second) instead of waking the loop once more: a Pi running this for years
            // wakes only to sample.
            let pollRidesOnSamples = interval < Self.pollInterval
            if clock.now >= nextPoll {
                for sink in parts?.sinks ?? [] { sink.poll(now: clock.now) }
                nextPoll = clock.now + Self.pollInterval - (pollRidesOnSamples ? interval : 0)
            }
            var deadline = pollRidesOnSamples ? nextSample : min(nextSample, nextPoll)
            if let due = engine.nextDeadline { deadline = min(deadline, due) }
            if let end { deadline = min(deadline, end) }
            let watched = (parts?.control?.descriptor).map { [$0] } ?? []
            switch waiter.wait(until: deadline, descriptors: watched + inputs.map(\.descriptor)) {
            case .deadline:
                continue
            case .signal(SIGHUP):
                reloadConfiguration()
            case .signal(let number):
                logger.log(.notice, "signal \(number): shutting down")
                return
            case .readable(let descriptor):
                if descriptor == parts?.control?.descriptor {
                    readControl()
                } else {
                    inputs.first { $0.descriptor == descriptor }?.handle()
                }
            }
        }
    }

    private func sample() {
        guard let sensor = parts?.sensor else { return }
        let reading: Reading?
        do {
            reading = try sensor.read()
            sensorTrouble.succeeded("\(sensor.description): reading again")
        } catch {
            reading = nil
            // The same trouble is logged once, however often the retries fail.
            var quiet = error
            quiet.retryAt = nil
            sensorTrouble.failed(quiet.description)
        }
        dispatch(engine.ingest(Sample(time: clock.now, lux: reading?.lux)))
        keepWatchdogHappy()
    }

    private func dispatch(_ events: [Event]) {
        for event in events {
            log(event)
            switch event.kind {
            case .change: lastChange = event
            case .fault: lastFault = event
            case .recovered: lastFault = nil
            case .current: break
            }
            for sink in parts?.sinks ?? [] { sink.deliver(event) }
            if !isReady, event.kind == .change || event.kind == .fault {
                isReady = true
                notifier.notify("READY=1\nSTATUS=\(status)")
            } else if event.kind != .current {
                notifier.notify("STATUS=\(status)")
            }
        }
    }

    /// Lux for people: two decimals are more than any of these sensors resolves.
    static func rounded(_ lux: Double) -> String { EventLine.number((lux * 100).rounded() / 100) }

    private var status: String {
        let state = engine.state?.rawValue ?? "no state yet"
        let lux = engine.filteredLux.map { ", \(Self.rounded($0)) lux" } ?? ""
        return state + lux + (engine.isFaulted ? ", sensor fault" : "")
            + (engine.activeOverride != nil ? ", override" : "")
    }

    private func log(_ event: Event) {
        let lux = event.lux.map { "lux \(Self.rounded($0))" } ?? "no reading"
        let filtered =
            event.filtered.map { ", filtered \(Self.rounded($0))" } ?? ""
        let state = event.state?.rawValue ?? "none"
        switch event.kind {
        case .change:
            logger.log(
                .notice,
                "state \(event.previous?.rawValue ?? "none") → \(state) (\(event.reason?.rawValue ?? "?"), \(lux)\(filtered))"
            )
        case .fault:
            logger.log(
                .warning,
                "sensor fault: no valid sample for \(EventLine.number(configuration.engine.faultAfter)) s; holding \(state)"
            )
        case .recovered:
            logger.log(.notice, "sensor recovered (\(lux)); state \(state)")
        case .current:
            break
        }
    }

    private func keepWatchdogHappy() {
        guard let interval = notifier.watchdogInterval else { return }
        let now = clock.now
        if now - lastWatchdog >= interval / 4 {
            lastWatchdog = now
            notifier.notify("WATCHDOG=1")
        }
    }

    private func readControl() {
        for input in parts?.control?.read() ?? [] {
            switch input {
            case .command(let command):
                dispatch(engine.apply(command, at: clock.now))
                persist(command)
            case .rejected(let line, let reason):
                logger.log(.warning, "control: ignored '\(line)': \(reason)")
            }
        }
    }

    private func persist(_ command: Engine.OverrideCommand) {
        do {
            try overrides(configuration)?.save(command, wallClockNow: wallClock())
        } catch {
            logger.log(.error, "override not persisted: \(error)")
        }
    }

    private func restoreOverride(at time: Double) {
        do {
            if let command = try overrides(configuration)?.restore(wallClockNow: wallClock()) {
                logger.log(.notice, "restoring the persisted override: \(command)")
                dispatch(engine.apply(command, at: time))
            }
        } catch {
            logger.log(.error, "persisted override ignored: \(error)")
        }
    }

    /// SIGHUP: a valid new configuration takes over without a restart; an invalid one, or one
    /// whose parts cannot be built, is logged and the old one keeps running.
    private func reloadConfiguration() {
        let next: DaemonConfiguration
        do {
            next = try reload()
        } catch {
            logger.log(.error, "reload rejected, keeping the running configuration: \(error)")
            return
        }
        let rebuild =
            next.sensor != configuration.sensor || next.gpio != configuration.gpio
            || next.pipes != configuration.pipes || next.stateFile != configuration.stateFile
            || next.controlPipe != configuration.controlPipe
        if rebuild {
            // The old parts let go first: the new ones may want the same lines and pipes.
            parts?.close()
            do {
                parts = try assemble(next)
            } catch {
                let refusal = (error as? OutputError)?.configurationError.map { next.locate($0).description }
                logger.log(
                    .error, "reload rejected, keeping the running configuration: \(refusal ?? "\(error)")")
                parts = try? assemble(configuration)
                if parts == nil {
                    logger.log(.error, "the running configuration could not be rebuilt either")
                }
                replayCurrentState()
                return
            }
        }
        configuration = next
        engine.reconfigure(next.engine)
        if rebuild { replayCurrentState() }
        logger.log(.notice, "configuration reloaded")
    }

    /// New sinks start blank: give them the state (and any fault) they should show.
    private func replayCurrentState() {
        for event in [lastChange, lastFault].compactMap({ $0 }) {
            for sink in parts?.sinks ?? [] { sink.deliver(event) }
        }
    }

    private func shutDown() {
        notifier.notify("STOPPING=1")
        parts?.close()
        parts = nil
    }
}
