import AmbienceCore

/// A Wayland session's outputs (`[display] device = "wayland"`, docs/display-sleep.md). The
/// daemon cannot reach a user's session, so it asks through its event lines (`display_asked`)
/// and `ambience kiosk`, which runs in the session, puts the outputs to that and writes back
/// through the control pipe what the compositor says of them (`outputs on|off`). What it was
/// last told is what it reports; nothing before a kiosk has said.
public final class SessionDisplay: DisplaySwitch {
    public let name = "wayland"
    public private(set) var power: DisplayPower?

    public init() {}

    /// The event lines carry the request; what the kiosk said before it is old news, so until it
    /// answers the lines carry the request, as for any display that has not said.
    public func set(power: DisplayPower, now: Double) {
        self.power = nil
    }

    public func told(_ power: DisplayPower) -> Bool {
        self.power = power
        return true
    }

    public func poll(now: Double) -> Double? { nil }

    public func close() {}
}
