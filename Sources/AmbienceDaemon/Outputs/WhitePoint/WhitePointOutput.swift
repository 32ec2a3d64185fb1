import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceRecord
import AmbienceSystem

/// The display's white: the white point engine while `[whitepoint]` is configured, the room's
/// colour temperature and the white the event lines carry, and the control pipe's `whitepoint`
/// lines. The displays take the white from the lines (`ambience kiosk`), so every mired the ramp
/// steps is a line: at most `ramp` lines a second while the white moves, none while it stays.
final class WhitePointOutput: Output {
    private let logger: Logger
    private let overrides: OverridePersistence
    private let wallClock: () -> Double
    private var configuration: DaemonConfiguration?
    private var engine: WhitePointEngine?
    /// What the event lines last carried, so that each change is told once.
    private var announced: WhitePointNews?
    /// The white the log last said the display settled at: one line a change, not a step.
    private var logged: Int?

    init(logger: Logger, overrides: OverridePersistence, wallClock: @escaping () -> Double) {
        self.logger = logger
        self.overrides = overrides
        self.wallClock = wallClock
    }

    func start(_ configuration: DaemonConfiguration, at time: Double) {
        self.configuration = configuration
        engine = configuration.whitePoint.map { WhitePointEngine(configuration: $0.whitePoint) }
        announced = news
    }

    func restore(at time: Double) { restoreOverride(at: time) }

    /// A running engine carries its level, its white and any override over; one configured anew
    /// starts afresh, with the override kept for it.
    func reconfigure(from running: DaemonConfiguration, to next: DaemonConfiguration, at time: Double) {
        configuration = next
        switch (engine, next.whitePoint) {
        case (nil, let settings?):
            engine = WhitePointEngine(configuration: settings.whitePoint)
            restoreOverride(at: time)
        case (_?, nil):
            engine = nil
            announced = nil
        case (var running?, let settings?):
            running.reconfigure(settings.whitePoint)
            engine = running
        case (nil, nil):
            break
        }
    }

    /// Before the sample's events go out, so that they carry the white of the same sample.
    func observe(_ row: inout LightRecord.Row) {
        guard var engine else { return }
        let colour = row.colour?.chromaticity.flatMap(ColourTemperature.init)
        let minuteOfDay = engine.configuration.night.isEmpty ? nil : WallClock.minuteOfDay(wallClock())
        engine.ingest(colour: colour, lux: row.lux, at: row.time, minuteOfDay: minuteOfDay)
        self.engine = engine
    }

    func annotate(_ event: inout Event) {
        announced = news
        event.whitePoint = announced
    }

    /// Moves the white on one mired when a step is due; has news when the white or the room's
    /// level is not what the lines last said.
    func advance(now: Double) -> OutputTurn {
        guard var engine else { return .idle }
        engine.advance(to: now)
        self.engine = engine
        if let white = engine.kelvin, white != logged, engine.isSettled {
            logged = white
            let room = engine.roomKelvin.map { "room \($0) K" } ?? "no colour from the room yet"
            logger.log(.info, "white point: the display at \(white) K (\(room))")
        }
        return OutputTurn(due: engine.nextDeadline, ridesOnNearbyWake: true, hasNews: news != announced)
    }

    func take(_ input: ControlPipe.Input, from _: ControlPipe, at time: Double) -> Bool {
        guard case .whitePoint(let command) = input else { return false }
        guard engine != nil, let configuration else {
            logger.log(.warning, "control: ignored a whitepoint line: no [whitepoint] is configured")
            return true
        }
        engine?.apply(command, at: time)
        logger.log(.notice, "white point: \(command.logged)")
        overrides.save(command, in: configuration)
        return true
    }

    private var news: WhitePointNews? {
        engine.map { WhitePointNews(room: $0.roomKelvin, display: $0.kelvin) }
    }

    private func restoreOverride(at time: Double) {
        guard engine != nil, let configuration else { return }
        if let command = overrides.restore(WhitePointEngine.Command.self, in: configuration) {
            engine?.apply(command, at: time)
        }
    }
}

extension OutputDescriptor {
    /// The display's white (`[whitepoint]`); the displays are the kiosk's, through the lines.
    static let whitePoint = OutputDescriptor(
        table: ConfigurationKey(
            "whitepoint",
            decode: { tables, root, decoder in
                tables.configuration.whitePoint = DaemonConfiguration.decodeWhitePoint(
                    root, decoder: &decoder)
            },
            text: { tables, path in
                .table(DaemonConfiguration.whitePointLines(tables.configuration.whitePoint, path: path))
            }),
        make: { context in
            WhitePointOutput(
                logger: context.logger, overrides: context.overrides, wallClock: context.wallClock)
        })
}
