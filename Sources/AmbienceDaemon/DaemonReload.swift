import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceSystem

/// SIGHUP: the configuration read again, and the parts whose settings changed built again.
extension Daemon {
    /// SIGHUP: a valid new configuration takes over without a restart, rebuilding only the parts
    /// whose settings changed; an invalid one, or one whose devices refuse it, is logged with
    /// its FILE:LINE: KEY lines and the running one kept. Throws when not even the running
    /// configuration's parts can be built again: a daemon without them would do nothing.
    func reloadConfiguration() throws(DaemonError) {
        let next: DaemonConfiguration
        do {
            next = try provider.configuration()
        } catch {
            logRejectedReload(error.errors.map { $0.description })
            return
        }
        let changed = DaemonPart.changed(from: configuration, to: next)
        if !changed.isEmpty {
            // The old parts let go first: the new ones may want the same lines and pipes.
            parts.close(changed)
            do {
                parts.replace(changed, with: try provider.parts(next, changed))
            } catch {
                logRejectedReload(Self.lines(of: error))
                do {
                    parts.replace(changed, with: try provider.parts(configuration, changed))
                } catch {
                    logger.log(.error, "the running configuration's parts could not be rebuilt either:")
                    for line in Self.lines(of: error) { logger.log(.error, line) }
                    throw .partsLost(error.description)
                }
                outputs.adopt(parts, rebuilt: changed)
                replayCurrentState(to: changed)
                return
            }
            outputs.adopt(parts, rebuilt: changed)
        }
        for output in outputs.all { output.reconfigure(from: configuration, to: next, at: clock.now) }
        configuration = next
        engine.reconfigure(next.engine)
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
        let outputs = outputs.driving(rebuilt)
        for event in said.forNewReader {
            for output in outputs { output.deliver(event) }
        }
    }
}
