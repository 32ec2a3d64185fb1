import AmbienceOutputs

extension DaemonPart {
    public static let backlight = DaemonPart("backlight")
}

/// The display's brightness control as the backlight output's device.
public final class BacklightDevice: OutputDevice {
    public let backlight: any Backlight

    public init(_ backlight: any Backlight) {
        self.backlight = backlight
    }

    public func close() { backlight.close() }
}

extension OutputDeviceDescriptor {
    /// `[backlight] device`. Only another device is another part: new curves or timing go to the
    /// brightness engine. One DDC/CI monitor for brightness and power is rebuilt with the display.
    static let backlight = OutputDeviceDescriptor(
        part: .backlight,
        changed: { old, new in
            old.backlight?.device != new.backlight?.device || DaemonConfiguration.sharedMonitorMoves(old, new)
        },
        build: { configuration, devices throws(OutputError) in
            guard let settings = configuration.backlight else { return nil }
            return try devices.backlight(settings.device).map(BacklightDevice.init)
        })
}
