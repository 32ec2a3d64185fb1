import AmbienceCore
import AmbienceSystem

/// Where events go. The daemon hands every event to every sink in order, from its sampling loop,
/// so no call here may wait for a consumer: a slow or absent consumer costs it lines, never time.
public protocol Sink: AnyObject {
    /// Takes one event and returns at once, whatever the consumer is doing.
    func deliver(_ event: Event)

    /// Called on every tick of the daemon's loop, at least once a second, with its monotonic
    /// time: notices new readers, retries what failed. Returns at once too.
    func poll(now: Double)

    /// Clean shutdown: leaves the output in its resting state and releases it. Idempotent.
    func close()
}

/// What a sink says about its own trouble (a GPIO write failing, a full disk), for the
/// daemon's log. A sink says it once when a fault begins and once when it ends, never per tick.
public typealias OutputLog = (String) -> Void

/// Renders an event's monotonic time as the JSON value of its "time" key.
public typealias EventTimeRenderer = (Double) -> String

public enum EventTime {
    /// Wall-clock ISO 8601 UTC with milliseconds, as the daemon writes it: the engine's
    /// monotonic time moved onto the wall clock by the two clocks' current offset.
    public static func wallClock(
        monotonic clock: any Clock, wall: @escaping @Sendable () -> Double = { WallClock.now }
    ) -> EventTimeRenderer {
        { time in "\"" + WallClock.iso8601(wall() - (clock.now - time)) + "\"" }
    }

    /// The monotonic seconds as a number, as `replay` writes them.
    public static func seconds(_ time: Double) -> String { EventLine.number(time) }
}
