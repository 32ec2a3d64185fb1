import AmbienceCore
import AmbienceSystem
import CWaylandShim

#if canImport(Glibc)
    import Glibc
#endif

/// The session's outputs through wlr-output-power-management (CWaylandShim): each call is one
/// request on a connection of its own, as wlopm makes it, holding nothing afterwards. For
/// `ambience kiosk`, which carries out `[display] device = "wayland"`, and `ambience probe`.
public enum WaylandOutputs {
    public enum Answer: Equatable, Sendable {
        /// On when any output is on.
        case power(DisplayPower)
        /// The compositor has no output now (a monitor unplugged): nothing to say.
        case noOutputs
        /// Why it cannot be asked.
        case unavailable(String)
    }

    /// How long the compositor has to answer each step of a request.
    static let timeoutMilliseconds: Int32 = 2000

    /// Puts every output to `power` (nil only asks) and says what they are then.
    public static func request(_ power: DisplayPower?) -> Answer {
        var counts = ambience_output_power_counts()
        let mode: Int32 = power.map { $0 == .on ? 1 : 0 } ?? -1
        let outcome = ambience_output_power(mode, timeoutMilliseconds, &counts)
        let error = Errno(rawValue: errno)
        switch outcome {
        case AMBIENCE_OUTPUT_POWER_DONE:
            if counts.on > 0 { return .power(.on) }
            if counts.off > 0 { return .power(.off) }
            if counts.failed > 0 {
                return .unavailable("another program holds the control of every output (only one may)")
            }
            return .noOutputs
        case AMBIENCE_OUTPUT_POWER_NO_LIBRARY:
            return .unavailable("libwayland-client.so.0 cannot be opened: no Wayland here")
        case AMBIENCE_OUTPUT_POWER_NO_COMPOSITOR:
            return .unavailable(
                "no Wayland compositor at WAYLAND_DISPLAY (\(error)): this is not the session's")
        case AMBIENCE_OUTPUT_POWER_UNSUPPORTED:
            return .unavailable(
                "the compositor offers no output power management (wlr-output-power-management; cage has"
                    + " none): its outputs cannot sleep; [display] device can name the panel's backlight,"
                    + " a monitor (\"ddc:N\") or a television (\"cec:N\") instead")
        default:
            return .unavailable("the compositor did not answer (\(error))")
        }
    }
}
