import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceRecord
import AmbienceSystem

/// The display's sleep: the sleep engine while `[display]` is configured, the power it asks of
/// the device, the power the event lines carry (the device's own word), the touchscreens that
/// wake it, and the control pipe's `display` and `outputs` lines.
///
/// A display that turns itself back on while asleep (a monitor that reconnects, another program)
/// is put back to sleep once, with a line in the log; if it turns on again in the same sleep it
/// is left on, said once, and reported on, so nothing fights in a loop and nothing lies.
final class DisplayOutput: Output {
    private let logger: Logger
    private let overrides: OverridePersistence
    private let wallClock: () -> Double
    /// The configuration its overrides are kept under.
    private var configuration: DaemonConfiguration?
    /// Whether the display is a Wayland session's outputs, asked through the lines: read once
    /// per configuration, not at every line.
    private var asksSession = false
    private var device: (any DisplaySwitch)?
    /// The touchscreens that wake the display; nil without `[display] touch`.
    private var touch: TouchScreens?
    private var engine: DisplaySleepEngine?
    /// What the device was last asked.
    private var asked: DisplayPower?
    /// Whether the display already turned itself back on once in the present sleep.
    private var turnedOnOnce = false
    /// Whether the present sleep has been given up to a display that keeps turning on.
    private var givenUp = false
    /// How many times the device has been asked: a Wayland session's outputs are asked through
    /// a line, so each time is one, even when the request is the same as before.
    private var requests = 0
    /// What the event lines last said.
    private var announced = Announcement()
    /// At start, until when the device's first word on its power is awaited before anything is
    /// asked of it; nil once it has said, or for a device that cannot say unasked.
    private var awaitingFirstWordUntil: Double?

    /// How long a device may take to say its power at start: a DDC/CI read with its rests, or a
    /// television's answer over CEC, with room to spare.
    static let firstWordWait = 3.0

    init(logger: Logger, overrides: OverridePersistence, wallClock: @escaping () -> Double) {
        self.logger = logger
        self.overrides = overrides
        self.wallClock = wallClock
    }

    func adopt(_ device: (any OutputDevice)?) {
        let devices = device as? DisplayDevices
        self.device = devices?.power
        touch = devices?.touch
    }

    func start(_ configuration: DaemonConfiguration, at time: Double) {
        self.configuration = configuration
        asksSession = configuration.displayDevice == .session
        engine = configuration.display.map { DisplaySleepEngine(configuration: $0.sleep) }
        asked = nil
    }

    /// The persisted override, then how the display is found: asleep when the last stop woke it
    /// (its note), else as the device first says, awaited before anything is asked of it.
    func restore(at time: Double) {
        restoreOverride(at: time)
        if engine != nil, let configuration {
            if overrides.restore(DisplayAsleepAtStop.self, in: configuration) != nil {
                // The last stop woke it: asleep again, whatever it says now.
                overrides.save(DisplayAsleepAtStop.cleared, in: configuration)
                engine?.foundAsleep()
            } else if device?.askPower(now: time) == true {
                awaitingFirstWordUntil = time + Self.firstWordWait
            }
        }
        _ = drive(now: time)
    }

    /// A running engine carries its state and any override over; one configured anew takes up
    /// the override kept for it.
    func reconfigure(from running: DaemonConfiguration, to next: DaemonConfiguration, at time: Double) {
        configuration = next
        asksSession = next.displayDevice == .session
        switch (engine, next.display) {
        case (nil, let settings?):
            engine = DisplaySleepEngine(configuration: settings.sleep)
            restoreOverride(at: time)
        case (_?, nil):
            engine = nil
        case (var running?, let settings?):
            running.reconfigure(settings.sleep)
            engine = running
        case (nil, nil):
            break
        }
    }

    func observe(_ row: inout LightRecord.Row) {
        guard let awake = engine?.configuration.awake else { return }
        let minuteOfDay = awake.isEmpty ? nil : WallClock.minuteOfDay(wallClock())
        engine?.ingest(lux: row.lux, filtered: row.filtered, at: row.time, minuteOfDay: minuteOfDay)
    }

    /// Puts the display's power, and what is asked of a session's outputs, on the line, and
    /// remembers them as the lines' last word.
    func annotate(_ event: inout Event) {
        event.display = reported
        event.displayAsked = askedOfSession
        announced = Announcement(power: event.display, asked: event.displayAsked, requests: requests)
    }

    /// Drives the display's power; a change of what the device says is news for the lines.
    func advance(now: Double) -> OutputTurn {
        let due = drive(now: now)
        // Asleep, every touch is the display's alone; awake, the grab lasts until the fingers lift.
        if engine?.output == .off {
            touch?.grabAll()
        } else if touch?.isTouching == false {
            touch?.releaseAll()
        }
        let askedAgain = askedOfSession != nil && requests != announced.requests
        let news = reported != announced.power || askedOfSession != announced.asked || askedAgain
        let deadlines = [due, engine?.nextDeadline].compactMap { $0 }
        return OutputTurn(due: deadlines.min(), hasNews: news)
    }

    var watched: [FileDescriptor] { touch?.descriptors ?? [] }

    func read(_ descriptor: FileDescriptor, at time: Double) {
        guard let touch, touch.descriptors.contains(descriptor) else { return }
        if touch.read(descriptor) { engine?.touched(at: time) }
    }

    func take(_ input: ControlPipe.Input, from _: ControlPipe, at time: Double) -> Bool {
        switch input {
        case .display(let command):
            guard engine != nil, let configuration else {
                logger.log(.warning, "control: ignored a display line: no [display] is configured")
                return true
            }
            engine?.apply(command, at: time)
            logger.log(.notice, "display: \(command.logged)")
            overrides.save(command, in: configuration)
            return true
        case .outputs(let power):
            if device?.told(power) != true {
                logger.log(
                    .warning,
                    "control: ignored '\(ControlLine.outputs(power))': [display] device is not \"wayland\"")
            }
            return true
        default:
            return false
        }
    }

    /// A daemon that stops leaves the display awake: nothing would wake it otherwise. One it had
    /// asleep is noted, for a start soon after to put back to sleep.
    func stop(at time: Double) {
        if request == .off, let configuration {
            overrides.save(DisplayAsleepAtStop.noted(remaining: nil), in: configuration)
        }
        device?.set(power: .on, now: time)
    }

    /// What the daemon asks of the display now: the engine's wish, except in a sleep given up to
    /// a display that kept turning itself on, when it asks nothing more of it (on); nil without
    /// `[display]`.
    private var request: DisplayPower? {
        guard let engine else { return nil }
        return givenUp ? .on : asked ?? engine.output
    }

    /// What the lines ask of a Wayland session's outputs (`display_asked`); nil for every other
    /// display.
    private var askedOfSession: DisplayPower? {
        asksSession ? request : nil
    }

    /// The display's power as the event lines carry it: what the device says, or, while it
    /// cannot say, what it was asked; nil without `[display]`.
    private var reported: DisplayPower? {
        guard let engine else { return nil }
        if awaitingFirstWordUntil != nil { return device?.power }
        return device?.power ?? asked ?? engine.output
    }

    /// Moves the engine on to `now`, asks the device for the engine's wish when it changed, and
    /// notices a display that is not as asked. Returns when the device wants the loop back.
    private func drive(now: Double) -> Double? {
        engine?.advance(to: now)
        guard let device else { return nil }
        if let due = awaitFirstWord(from: device, now: now) { return due }
        guard let running = engine else { return nil }
        let wish = running.output
        if wish != asked {
            asked = wish
            turnedOnOnce = false
            givenUp = false
            logger.log(
                .notice,
                "display \(device.name): \(wish == .off ? "asleep" : "awake") (\(Self.why(running.reason)))")
            device.set(power: wish, now: now)
            requests += 1
        }
        let due = device.poll(now: now)
        if asked == .off, device.power == .on, !givenUp {
            if turnedOnOnce {
                givenUp = true
                logger.log(
                    .notice,
                    "display \(device.name) turned itself on again: left on until the room next wakes it")
            } else {
                turnedOnOnce = true
                logger.log(.notice, "display \(device.name) turned itself back on: put back to sleep once")
                device.set(power: .off, now: now)
                requests += 1
            }
        }
        return due
    }

    /// At start, nothing is asked of the device until it has said its power, or the wait is over:
    /// a display that says it is asleep is left asleep, and the room decides from there. Returns
    /// when to come back while waiting.
    private func awaitFirstWord(from device: any DisplaySwitch, now: Double) -> Double? {
        guard let until = awaitingFirstWordUntil else { return nil }
        let due = device.poll(now: now)
        if device.power == nil, now < until { return min(due ?? until, until) }
        awaitingFirstWordUntil = nil
        if device.power == .off { engine?.foundAsleep() }
        return nil
    }

    private func restoreOverride(at time: Double) {
        guard engine != nil, let configuration else { return }
        if let command = overrides.restore(DisplaySleepEngine.Command.self, in: configuration) {
            engine?.apply(command, at: time)
        }
    }

    /// The display's power the event lines last carried, what they last asked of a Wayland
    /// session's outputs, and `requests` when a line last carried the session's request.
    private struct Announcement {
        var power: DisplayPower?
        var asked: DisplayPower?
        var requests = 0
    }

    private static func why(_ reason: DisplaySleepEngine.Reason) -> String {
        switch reason {
        case .startup: "at start"
        case .dark: "the room stayed dark"
        case .light: "the light came on"
        case .touch: "a touch"
        case .window: "an awake window"
        case .override: "an override"
        case .auto: "back to the room"
        }
    }
}

extension DaemonConfiguration {
    /// `[display]`; nil: the display never sleeps with the room.
    public var display: DisplaySettings? {
        get { outputs["display", default: nil] }
        set { outputs["display", default: nil] = newValue }
    }
}

extension OutputDescriptor {
    /// The display's sleep (`[display]`).
    static let display = OutputDescriptor(
        table: ConfigurationKey(
            "display",
            decode: { tables, root, decoder in
                tables.configuration.display = DaemonConfiguration.decodeDisplay(root, decoder: &decoder)
            },
            text: { tables, path in
                .table(DaemonConfiguration.displayLines(tables.configuration.display, path: path))
            }
        )
        .then { tables, root, decoder in
            // The kiosk reads what is asked of a session's outputs in the JSON lines alone.
            let configuration = tables.configuration
            guard configuration.display?.device == .session, configuration.pipes.format != .json else {
                return
            }
            decoder.adopt(
                ConfigurationError(
                    key: decoder.section("display", of: root).key("device"),
                    message:
                        "\"wayland\" is asked of ambience kiosk in JSON lines: [pipes] format must be \"json\""
                ))
        },
        device: .display,
        make: { context in
            DisplayOutput(logger: context.logger, overrides: context.overrides, wallClock: context.wallClock)
        })
}
