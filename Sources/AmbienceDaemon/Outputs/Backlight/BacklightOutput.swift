import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceRecord
import AmbienceSystem

/// The display's brightness: the backlight's engine while `[backlight]` is configured, the
/// percent it hands the device, the percent the event lines carry, and the control pipe's
/// `brightness` lines.
final class BacklightOutput: Output {
    private let logger: Logger
    private let overrides: OverridePersistence
    /// The configuration its overrides are kept under.
    private var configuration: DaemonConfiguration?
    private var device: (any Backlight)?
    private var engine: BrightnessEngine?
    /// The percent the event lines last announced, so that a fade's end is announced once.
    private var announced: Int?

    init(logger: Logger, overrides: OverridePersistence) {
        self.logger = logger
        self.overrides = overrides
    }

    func adopt(_ device: (any OutputDevice)?) { self.device = (device as? BacklightDevice)?.backlight }

    func start(_ configuration: DaemonConfiguration, at time: Double) {
        self.configuration = configuration
        engine = configuration.backlight.map { BrightnessEngine(configuration: $0.brightness) }
    }

    func restore(at time: Double) { restoreOverride(at: time) }

    /// A running engine carries its level, its output and any override over; one configured anew
    /// starts afresh, with the override kept for it.
    func reconfigure(from running: DaemonConfiguration, to next: DaemonConfiguration, at time: Double) {
        configuration = next
        switch (engine, next.backlight) {
        case (nil, let settings?):
            engine = BrightnessEngine(configuration: settings.brightness)
            restoreOverride(at: time)
        case (_?, nil):
            engine = nil
        case (var running?, let settings?):
            running.reconfigure(settings.brightness)
            engine = running
        case (nil, nil):
            break
        }
    }

    /// Before the sample's events go out, so that they carry the brightness of the same sample.
    func observe(_ row: inout LightRecord.Row) {
        engine?.ingest(lux: row.lux, state: row.state, at: row.time)
        row.brightness = engine?.output
    }

    func annotate(_ event: inout Event) {
        announced = engine?.output
        event.brightness = announced
    }

    /// Moves the brightness on (a ramp step, an override's end) and hands the percent to the
    /// device. Wants the loop back for the next ramp step or the device's own wish (a retry);
    /// has news when a fade has ended at a percent the lines have not carried yet.
    func advance(now: Double) -> OutputTurn {
        guard var fader = engine else { return .idle }
        var fadeEnded = false
        fader.advance(to: now)
        engine = fader
        if let percent = fader.output {
            device?.set(percent: percent, now: now)
            // Every step is not news: the percent the lines carry changes when a fade ends.
            fadeEnded = percent == fader.target && percent != announced
        }
        let devicesWish = device?.poll(now: now)
        let due: Double? =
            switch (fader.nextDeadline, devicesWish) {
            case (let step?, let wish?): min(step, wish)
            case (let step, let wish): step ?? wish
            }
        // A ramp step due with the sample (10 %/s at 10 Hz) is taken at the sample.
        return OutputTurn(due: due, ridesOnNearbyWake: true, hasNews: fadeEnded)
    }

    func take(_ input: ControlPipe.Input, from _: ControlPipe, at time: Double) -> Bool {
        guard case .brightness(let command) = input else { return false }
        guard engine != nil, let configuration else {
            logger.log(.warning, "control: ignored a brightness line: no [backlight] is configured")
            return true
        }
        engine?.apply(command, at: time)
        logger.log(.notice, "backlight: \(command.logged)")
        overrides.save(command, in: configuration)
        return true
    }

    private func restoreOverride(at time: Double) {
        guard engine != nil, let configuration else { return }
        if let command = overrides.restore(BrightnessEngine.Command.self, in: configuration) {
            engine?.apply(command, at: time)
        }
    }
}

extension DaemonConfiguration {
    /// `[backlight]`; nil leaves the display's brightness alone.
    public var backlight: BacklightSettings? {
        get { outputs["backlight", default: nil] }
        set { outputs["backlight", default: nil] = newValue }
    }
}

extension OutputDescriptor {
    /// The display's brightness (`[backlight]`).
    static let backlight = OutputDescriptor(
        table: ConfigurationKey(
            "backlight",
            decode: { tables, root, decoder in
                tables.configuration.backlight = DaemonConfiguration.decodeBacklight(root, decoder: &decoder)
            },
            text: { tables, path in
                .table(DaemonConfiguration.backlightLines(tables.configuration.backlight, path: path))
            }),
        device: .backlight,
        make: { context in BacklightOutput(logger: context.logger, overrides: context.overrides) })
}
