import AmbienceCore

/// A display's power, driven from the daemon's loop: asleep or awake through the display's own
/// interface (a backlight's `bl_power`, a monitor's VCP 0xD6). No call may wait on the device.
public protocol DisplaySwitch: AnyObject {
    /// What the log calls it: "ambience-test", "ddc:1 (0x37)".
    var name: String { get }
    /// Asks for the display on or off at monotonic time `now`.
    func set(power: DisplayPower, now: Double)
    /// What the device says its power is, as last read back; nil before it has said, or while
    /// it cannot be asked.
    var power: DisplayPower? { get }
    /// Called from the daemon's loop; returns when it next needs a call, or nil when nothing is
    /// pending.
    func poll(now: Double) -> Double?
    /// Leaves the display as it is and releases it. Idempotent.
    func close()
    /// Asks the device to say its power at the next `poll`, without changing it: at start, so
    /// that a display found asleep is left asleep. False for one that cannot say it unasked.
    @discardableResult func askPower(now: Double) -> Bool
    /// Takes what the program that can reach the display says of it (`ambience kiosk`, of a
    /// Wayland session's outputs); false for a display the daemon asks itself, which ignores it.
    func told(_ power: DisplayPower) -> Bool
}

extension DisplaySwitch {
    public func told(_ power: DisplayPower) -> Bool { false }
    @discardableResult public func askPower(now: Double) -> Bool { false }
}
