import AmbienceCore
import AmbienceOutputs
import AmbienceSystem

/// The display's brightness: the backlight's engine while `[backlight]` is configured, the
/// percent it hands the device, and the percent the event lines carry.
struct BacklightDriver {
    private let clock: any Clock
    private var engine: BrightnessEngine?
    /// The percent the event lines last announced, so that a fade's end is announced once.
    private var announced: Int?

    init(clock: any Clock) {
        self.clock = clock
    }

    /// Whether `[backlight]` is configured: without it the display's brightness is left alone.
    var isConfigured: Bool { engine != nil }

    /// The percent the backlight should show now; nil without `[backlight]` or before it knows.
    var output: Int? { engine?.output }

    /// A fresh engine for `settings`, as at start.
    mutating func start(_ settings: BacklightSettings?) {
        engine = settings.map { BrightnessEngine(configuration: $0.brightness) }
    }

    /// Takes a reloaded `[backlight]`: a running engine carries its level, its output and any
    /// override over; one configured anew starts afresh.
    mutating func reconfigure(_ settings: BacklightSettings?) {
        switch (engine, settings) {
        case (nil, let settings?):
            engine = BrightnessEngine(configuration: settings.brightness)
        case (_?, nil):
            engine = nil
        case (var running?, let settings?):
            running.reconfigure(settings.brightness)
            engine = running
        case (nil, nil):
            break
        }
    }

    mutating func ingest(lux: Double?, state: AmbienceState?, at time: Double) {
        engine?.ingest(lux: lux, state: state, at: time)
    }

    mutating func apply(_ command: BrightnessEngine.Command, at time: Double) {
        engine?.apply(command, at: time)
    }

    /// The percent an event line carries, which it has then announced.
    mutating func announce() -> Int? {
        announced = engine?.output
        return announced
    }

    /// Moves the brightness on (a ramp step, an override's end), hands the percent to the
    /// device. Returns when the loop must come back besides sampling (the next ramp step, or the
    /// device's own wish: a retry; nil at rest), and whether a fade has ended at a percent the
    /// lines have not carried yet, for the caller to announce (which `announce()` marks said).
    mutating func drive(_ backlight: (any Backlight)?) -> (due: Double?, fadeEnded: Bool) {
        guard var fader = engine else { return (nil, false) }
        var fadeEnded = false
        let now = clock.now
        fader.advance(to: now)
        engine = fader
        if let percent = fader.output {
            backlight?.set(percent: percent, now: now)
            // Every step is not news: the percent the lines carry changes when a fade ends.
            fadeEnded = percent == fader.target && percent != announced
        }
        let devicesWish = backlight?.poll(now: now)
        switch (fader.nextDeadline, devicesWish) {
        case (let step?, let wish?): return (min(step, wish), fadeEnded)
        case (let step, let wish): return (step ?? wish, fadeEnded)
        }
    }
}
