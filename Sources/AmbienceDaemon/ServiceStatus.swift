import AmbienceCore
import AmbienceSystem

/// What systemd is told of the daemon: READY=1 with the first state (or fault), STATUS= with each
/// event after, WATCHDOG=1 from the loop, STOPPING=1 at the end.
struct ServiceStatus {
    private let notifier: any ServiceNotifying
    private var watchdog: WatchdogFeeder
    private var isReady = false

    init(notifier: any ServiceNotifying, clock: any Clock) {
        self.notifier = notifier
        watchdog = WatchdogFeeder(notifier: notifier, clock: clock)
    }

    mutating func announce(_ event: Event, status: @autoclosure () -> String) {
        if !isReady, event.kind == .change || event.kind == .fault {
            isReady = true
            notifier.notify("READY=1\nSTATUS=\(status())")
        } else if event.kind != .current {
            notifier.notify("STATUS=\(status())")
        }
    }

    /// See `WatchdogFeeder.feed`: when the loop must wake for the watchdog at the latest.
    mutating func feedWatchdog() -> Double? { watchdog.feed() }

    func stopping() { notifier.notify("STOPPING=1") }
}
