import AmbienceCore
import AmbienceOutputs

/// The display's sleep: the sleep engine while `[display]` is configured, the power it asks of
/// the device, and the power the event lines carry, which is the device's own word.
///
/// A display that turns itself back on while asleep (a monitor that reconnects, another program)
/// is put back to sleep once, with a line in the log; if it turns on again in the same sleep it
/// is left on, said once, and reported on, so nothing fights in a loop and nothing lies.
struct DisplaySleepDriver {
    private var engine: DisplaySleepEngine?
    /// What the device was last asked.
    private var asked: DisplayPower?
    /// Whether the display already turned itself back on once in the present sleep.
    private var turnedOnOnce = false
    /// Whether the present sleep has been given up to a display that keeps turning on.
    private var givenUp = false
    private let log: (String) -> Void
    /// How many times the device has been asked: a Wayland session's outputs are asked through
    /// a line, so each time is one, even when the request is the same as before.
    private(set) var requests = 0

    init(log: @escaping (String) -> Void) {
        self.log = log
    }

    /// Whether `[display]` is configured.
    var isConfigured: Bool { engine != nil }

    /// The engine's wish, nil without `[display]`.
    var wish: DisplayPower? { engine?.output }

    /// Why the display is as it is.
    var reason: DisplaySleepEngine.Reason? { engine?.reason }

    /// The override held, if any.
    var activeOverride: DisplaySleepEngine.Override? { engine?.activeOverride }

    /// When the engine next has something to do (an override's end).
    var nextDeadline: Double? { engine?.nextDeadline }

    /// A fresh engine for `settings`, as at start.
    mutating func start(_ settings: DisplaySettings?) {
        engine = settings.map { DisplaySleepEngine(configuration: $0.sleep) }
        asked = nil
    }

    /// Takes a reloaded `[display]`: a running engine carries its state and any override over.
    mutating func reconfigure(_ settings: DisplaySettings?) {
        switch (engine, settings) {
        case (nil, let settings?):
            engine = DisplaySleepEngine(configuration: settings.sleep)
        case (_?, nil):
            engine = nil
        case (var running?, let settings?):
            running.reconfigure(settings.sleep)
            engine = running
        case (nil, nil):
            break
        }
    }

    mutating func ingest(lux: Double?, filtered: Double?, at time: Double, minuteOfDay: Int?) {
        engine?.ingest(lux: lux, filtered: filtered, at: time, minuteOfDay: minuteOfDay)
    }

    mutating func apply(_ command: DisplaySleepEngine.Command, at time: Double) {
        engine?.apply(command, at: time)
    }

    mutating func touched(at time: Double) {
        engine?.touched(at: time)
    }

    /// What the daemon asks of the display now, as the event lines carry it for a Wayland
    /// session's outputs (`display_asked`): the engine's wish, except in a sleep given up to a
    /// display that kept turning itself on, when it asks nothing more of it (on); nil without
    /// `[display]`.
    var request: DisplayPower? {
        guard let engine else { return nil }
        return givenUp ? .on : asked ?? engine.output
    }

    /// The display's power as the event lines carry it: what the device says, or, while it
    /// cannot say, what it was asked; nil without `[display]`.
    func reported(by device: (any DisplaySwitch)?) -> DisplayPower? {
        guard let engine else { return nil }
        return device?.power ?? asked ?? engine.output
    }

    /// Moves the engine on to `now`, asks the device for the engine's wish when it changed, and
    /// notices a display that is not as asked. Returns when the device wants the loop back.
    mutating func drive(_ device: (any DisplaySwitch)?, now: Double) -> Double? {
        guard var running = engine else { return nil }
        running.advance(to: now)
        engine = running
        guard let device else { return nil }
        let wish = running.output
        if wish != asked {
            asked = wish
            turnedOnOnce = false
            givenUp = false
            log("display \(device.name): \(wish == .off ? "asleep" : "awake") (\(Self.why(running.reason)))")
            device.set(power: wish, now: now)
            requests += 1
        }
        let due = device.poll(now: now)
        if asked == .off, device.power == .on, !givenUp {
            if turnedOnOnce {
                givenUp = true
                log("display \(device.name) turned itself on again: left on until the room next wakes it")
            } else {
                turnedOnOnce = true
                log("display \(device.name) turned itself back on: put back to sleep once")
                device.set(power: .off, now: now)
                requests += 1
            }
        }
        return due
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
