import AmbienceCore

/// What `ambience kiosk` does for `[display] device = "wayland"` (docs/display-sleep.md): the
/// daemon cannot reach the user's session, so its lines ask (`display_asked`) and the kiosk, in
/// the session, puts the outputs to that and says back through the control pipe what the
/// compositor says of them (`outputs on|off`), which is what the lines then carry as `display`.
/// Pure: the program makes the requests and writes the lines.
///
/// The daemon decides everything, the kiosk only carries it out, never on its own: a display the
/// daemon has given up putting back to sleep (its lines then ask on) is left alone.
public struct SessionOutputs: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// Put every output to this, then measure them.
        case set(DisplayPower)
        /// Tell the daemon: `ControlLine.outputs(power)`.
        case report(DisplayPower)
    }

    /// What the newest line asks; nil while the lines ask nothing (the daemon's display is not
    /// the session's, or no line has come).
    public private(set) var asked: DisplayPower?
    /// What the newest line says the display is.
    private var announced: DisplayPower?
    /// The outputs as last measured: on when any is on; nil before, or when they cannot be asked.
    public private(set) var measured: DisplayPower?
    /// What the kiosk last told the daemon.
    private var reported: DisplayPower?

    public init() {}

    /// A `change` or `current` line's `display` and `display_asked`.
    ///
    /// The outputs are set when the request changes, and when a line says the display is as asked
    /// while the kiosk knows otherwise: the daemon asking again (it puts back once a display that
    /// turned itself on, and forgets what the kiosk said). A standing request is not set again,
    /// so a compositor's own blanking (swayidle, wlopm) is reported, never undone.
    public mutating func line(display: DisplayPower?, asked: DisplayPower?) -> [Action] {
        let previous = self.asked
        self.asked = asked
        announced = display
        guard let asked else { return [] }
        guard let measured else { return [.set(asked)] }
        if measured != asked, asked != previous || display == asked { return [.set(asked)] }
        return display == measured ? [] : report(measured)
    }

    /// The outputs as the compositor said them, after a request or at a periodic check; nil when
    /// it could not say.
    public mutating func measured(_ power: DisplayPower?) -> [Action] {
        measured = power
        guard asked != nil, let power, power != reported || power != announced else { return [] }
        return report(power)
    }

    private mutating func report(_ power: DisplayPower) -> [Action] {
        reported = power
        return [.report(power)]
    }

    /// How often the outputs are measured while the lines ask: a compositor's own blanking
    /// (swayidle) or a monitor that reconnects is told to the daemon within this.
    public static let checkInterval = 5.0
}
