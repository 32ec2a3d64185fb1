import AmbienceSystem

/// Sends WATCHDOG=1 from the loop itself, never from a thread of its own, so that a loop that
/// is stuck is a watchdog that starves.
struct WatchdogFeeder {
    private let notifier: any ServiceNotifying
    private let clock: any Clock
    /// When WATCHDOG=1 was last sent; the loop sends it again on any wake-up a quarter of the
    /// interval later, and wakes for it at half (sd_watchdog_enabled(3)), whatever the samples do.
    private var lastFed = -Double.infinity

    init(notifier: any ServiceNotifying, clock: any Clock) {
        self.notifier = notifier
        self.clock = clock
    }

    /// Rides on whatever woke the loop once a quarter of the interval has passed (frequent
    /// samples cost no wake-up of its own); returns when the loop must wake for it at the
    /// latest: half the interval after the last one, as systemd asks. Nil without a watchdog.
    mutating func feed() -> Double? {
        guard let interval = notifier.watchdogInterval else { return nil }
        let now = clock.now
        if now - lastFed >= interval / 4 {
            lastFed = now
            notifier.notify("WATCHDOG=1")
        }
        return lastFed + interval / 2
    }
}
