import AmbienceConfig

/// Why the daemon could not start or go on.
public enum DaemonError: Error, Sendable, CustomStringConvertible {
    /// Faults of the configuration, each placed at FILE:LINE: KEY, including keys the devices
    /// refuse (a missing GPIO chip, a line out of range). Exit 78.
    case configuration(ConfigFileErrors)
    /// A device or file that cannot be used now: a missing bus, a busy line, a permission. Exit 1.
    case unavailable(String)
    /// A reload was refused and the running configuration's parts could not be built again
    /// either: the daemon stops, so that systemd starts it afresh. Exit 1.
    case partsLost(String)

    public var description: String {
        switch self {
        case .configuration(let errors): errors.description
        case .unavailable(let why): why
        case .partsLost(let why): "the running configuration's parts could not be rebuilt: \(why)"
        }
    }
}
