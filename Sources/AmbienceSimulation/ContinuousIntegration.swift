/// The clock of a chip that integrates light without pause, one integration after another,
/// where a new timing register takes effect from the next integration, not the one under way:
/// which integrations ended by a given time, and the last one's setting and midpoint (the
/// data registers hold its result).
struct ContinuousIntegration<Setting> {
    /// When the integration under way began.
    private(set) var start: Double
    /// The timing register value the integration under way runs with.
    private(set) var setting: Setting

    /// A fresh integration from `time` (power-up, enabling the converter).
    mutating func restart(at time: Double, setting: Setting) {
        start = time
        self.setting = setting
    }

    /// Moves on to `time` with `current` as the timing register; `seconds` is how long an
    /// integration with a setting takes (nil: the setting does not integrate). Nil when no
    /// integration ended since the last call.
    mutating func complete(until time: Double, current: Setting, seconds: (Setting) -> Double?)
        -> (setting: Setting, midpoint: Double)?
    {
        guard let duration = seconds(setting), time >= start + duration else { return nil }
        // The first integration may still use the old setting; later ones use the current one.
        var end = start + duration
        var used = setting
        var lastDuration = duration
        setting = current
        if let next = seconds(current) {
            let more = ((time - end) / next).rounded(.down)
            if more >= 1 {
                end += more * next
                used = current
                lastDuration = next
            }
        }
        start = end
        return (used, end - lastDuration / 2)
    }
}
