import AmbienceCore
import AmbienceOutputs

/// A display for `simulate` that takes every wish at once and reads back what it took: what a
/// backlight's `bl_power` does, without a device.
public final class SimulatedDisplay: DisplaySwitch {
    public let name: String
    public private(set) var power: DisplayPower?

    public init(name: String) {
        self.name = name
    }

    public func set(power wish: DisplayPower, now: Double) { power = wish }
    public func poll(now: Double) -> Double? { nil }
    public func close() {}
}
