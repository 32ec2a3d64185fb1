import AmbienceCore
import AmbienceSystem

/// What the daemon says of the light: a log line for each event, and the status systemd shows.
enum EventWording {
    static func log(_ event: Event, faultAfter: Double, to logger: Logger) {
        let lux = event.lux.map { "lux \(Daemon.rounded($0))" } ?? "no reading"
        let filtered =
            event.filtered.map { ", filtered \(Daemon.rounded($0))" } ?? ""
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
                "sensor fault: no valid sample for \(EventLine.number(faultAfter)) s; holding \(state)"
            )
        case .recovered:
            logger.log(.notice, "sensor recovered (\(lux)); state \(state)")
        case .current:
            break
        }
    }

    /// systemd's STATUS=: the state, the filtered lux, and what holds it.
    static func status(of engine: Engine) -> String {
        let state = engine.state?.rawValue ?? "no state yet"
        let lux = engine.filteredLux.map { ", \(Daemon.rounded($0)) lux" } ?? ""
        return state + lux + (engine.isFaulted ? ", sensor fault" : "")
            + (engine.activeOverride != nil ? ", override" : "")
    }
}

extension Daemon {
    /// Lux for people: two decimals are more than any of these sensors resolves.
    public static func rounded(_ lux: Double) -> String { EventLine.number((lux * 100).rounded() / 100) }
}
