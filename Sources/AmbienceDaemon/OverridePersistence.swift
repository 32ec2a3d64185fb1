import AmbienceCore
import AmbienceOutputs
import AmbienceSystem

/// The overrides kept across restarts, the theme's and the backlight's alike, in the running
/// configuration's state directory. A store that fails is logged and the daemon goes on: an
/// override that is not kept still holds until the next restart.
struct OverridePersistence {
    private let stores: (DaemonConfiguration) -> OverrideStore?
    private let wallClock: () -> Double
    private let logger: Logger

    init(
        stores: @escaping (DaemonConfiguration) -> OverrideStore?, wallClock: @escaping () -> Double,
        logger: Logger
    ) {
        self.stores = stores
        self.wallClock = wallClock
        self.logger = logger
    }

    func save<Command: LoggedOverride>(_ command: Command, in configuration: DaemonConfiguration) {
        do {
            try stores(configuration)?.save(command, wallClockNow: wallClock())
        } catch {
            logger.log(.error, "\(Command.noun) not persisted: \(error)")
        }
    }

    /// The override of `kind` that was held when the daemon stopped, if it has time left.
    func restore<Command: LoggedOverride>(
        _ kind: Command.Type, in configuration: DaemonConfiguration
    ) -> Command? {
        do {
            guard let command = try stores(configuration)?.restore(kind, wallClockNow: wallClock()) else {
                return nil
            }
            logger.log(.notice, "restoring the persisted \(Command.noun): \(command.logged)")
            return command
        } catch {
            logger.log(.error, "persisted \(Command.noun) ignored: \(error)")
            return nil
        }
    }
}

/// An override as the log words it.
protocol LoggedOverride: PersistedOverride {
    /// What the log calls this kind.
    static var noun: String { get }
    var logged: String { get }
}

extension Engine.OverrideCommand: LoggedOverride {
    static var noun: String { "override" }
    var logged: String {
        switch self {
        case .hold(let state, nil): "theme held at \(state.rawValue)"
        case .hold(let state, let duration?):
            "theme held at \(state.rawValue) for \(EventLine.number(duration)) s"
        case .auto: "theme follows the light"
        }
    }
}

extension BrightnessEngine.Command: LoggedOverride {
    static var noun: String { "brightness override" }

    var logged: String {
        switch self {
        case .hold(let percent, nil): "brightness held at \(percent) %"
        case .hold(let percent, let duration?):
            "brightness held at \(percent) % for \(EventLine.number(duration)) s"
        case .auto: "brightness follows the light"
        }
    }
}

extension DisplaySleepEngine.Command: LoggedOverride {
    static var noun: String { "display override" }

    var logged: String {
        switch self {
        case .hold(let power, nil): "display held \(power.rawValue)"
        case .hold(let power, let duration?):
            "display held \(power.rawValue) for \(EventLine.number(duration)) s"
        case .auto: "display sleeps with the room"
        }
    }
}

extension DisplayAsleepAtStop: LoggedOverride {
    static var noun: String { "display's sleep at the last stop" }
    var logged: String { "asleep again" }
}
