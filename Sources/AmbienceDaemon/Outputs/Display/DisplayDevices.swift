import AmbienceOutputs

extension DaemonPart {
    public static let display = DaemonPart("display")
}

/// The display output's devices: the switch that puts the display to sleep, and the
/// touchscreens that wake it (nil without `[display] touch`).
public final class DisplayDevices: OutputDevice {
    public let power: any DisplaySwitch
    public let touch: TouchScreens?

    public init(_ power: any DisplaySwitch, touch: TouchScreens? = nil) {
        self.power = power
        self.touch = touch
    }

    public func close() {
        power.close()
        touch?.close()
    }
}

extension DaemonConfiguration {
    /// Whether a reload changes the brightness's or the display's device while one DDC/CI monitor
    /// is both, before or after: then neither is rebuilt without the other.
    static func sharedMonitorMoves(_ old: DaemonConfiguration, _ new: DaemonConfiguration) -> Bool {
        guard old.sharedMonitor != nil || new.sharedMonitor != nil else { return false }
        return old.backlight?.device != new.backlight?.device || displayDevicesDiffer(old, new)
    }

    fileprivate static func displayDevicesDiffer(_ old: DaemonConfiguration, _ new: DaemonConfiguration)
        -> Bool
    {
        old.displayDevice != new.displayDevice || old.display?.touch != new.display?.touch
    }
}

extension OutputDeviceDescriptor {
    /// The display that sleeps (`[display] device`, or `[backlight]`'s for `auto`) and its
    /// touchscreens.
    static let display = OutputDeviceDescriptor(
        part: .display,
        changed: { old, new in
            DaemonConfiguration.displayDevicesDiffer(old, new)
                || DaemonConfiguration.sharedMonitorMoves(old, new)
        },
        build: { configuration, devices throws(OutputError) in
            guard let device = configuration.displayDevice else { return nil }
            return DisplayDevices(
                try devices.display(device),
                touch: configuration.display?.touch == true ? devices.touchScreens() : nil)
        })
}
