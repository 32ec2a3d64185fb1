/// A display's brightness control, driven from the daemon's loop. No call may wait on the
/// device: one that must pace its writes (DDC/CI) keeps the latest wish and sends it when allowed.
public protocol Backlight: AnyObject {
    /// What the log calls it: "rpi_backlight", "ddc:1 (0x37)".
    var name: String { get }
    /// Asks for `percent` (0...100) at monotonic time `now`.
    func set(percent: Int, now: Double)
    /// Called from the daemon's loop; returns when it next needs a call, or nil when nothing is pending.
    func poll(now: Double) -> Double?
    /// Leaves the device as it is and releases it. Idempotent.
    func close()
}
