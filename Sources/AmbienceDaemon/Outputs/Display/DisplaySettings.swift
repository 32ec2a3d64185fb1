import AmbienceConfig
import AmbienceCore
import AmbienceI2C
import TOML

/// `[display]` (docs/display-sleep.md): which display sleeps with the room, and when. Off unless
/// the table is present.
public struct DisplaySettings: Equatable, Sendable {
    /// The display to put to sleep.
    public enum Device: Equatable, Sendable, CustomStringConvertible {
        /// A display whose brightness `[backlight]` could set too: a backlight class device
        /// (`bl_power`) or a DDC/CI monitor (VCP 0xD6); `auto` is `[backlight]`'s device when
        /// there is one.
        case screen(BacklightSettings.Device)
        /// A television through HDMI-CEC: /dev/cecN.
        case cec(Int)
        /// The outputs of the Wayland session `ambience kiosk` runs in.
        case session

        public static let auto = Device.screen(.auto)

        /// As the file writes it.
        public var description: String {
            switch self {
            case .screen(let device): device.description
            case .cec(let number): "cec:\(number)"
            case .session: Self.sessionName
            }
        }

        static let sessionName = "wayland"

        /// `"cec:N"`, `"wayland"`, or what `[backlight] device` takes; nil when it is none of them.
        public init?(_ text: String) {
            if text == Self.sessionName {
                self = .session
            } else if text.hasPrefix("cec:") {
                guard let number = Int(text.dropFirst(4)), number >= 0 else { return nil }
                self = .cec(number)
            } else {
                guard let device = BacklightSettings.Device(text) else { return nil }
                self = .screen(device)
            }
        }
    }

    public var device: Device
    public var sleep: DisplaySleepConfiguration
    /// Whether a touch on a touchscreen wakes the display (and is swallowed).
    public var touch: Bool

    public init(
        device: Device = .auto, sleep: DisplaySleepConfiguration = .darkRoom,
        touch: Bool = true
    ) {
        self.device = device
        self.sleep = sleep
        self.touch = touch
    }
}

extension DaemonConfiguration {
    /// The device whose display sleeps: `[display] device`, or `[backlight]`'s for `auto`.
    public var displayDevice: DisplaySettings.Device? {
        guard let display else { return nil }
        if display.device == .auto, let backlight { return .screen(backlight.device) }
        return display.device
    }

    /// The DDC/CI monitor's bus when `[backlight]` and `[display]` are the same monitor: one
    /// driver then does both, so their messages keep the standard's pace.
    public var sharedMonitor: I2CBusSelector? {
        guard case .screen(.ddc(let selector))? = displayDevice, backlight?.device == .ddc(selector) else {
            return nil
        }
        return selector
    }

    /// Where the file keeps each of the display sleep engine's values.
    static func displayFileKey(_ field: String) -> String? {
        switch DisplaySleepField(rawValue: field) {
        case .sleepBelow: "display.sleep_below"
        case .wakeAbove: "display.wake_above"
        case .sleepAfter: "display.sleep_after"
        case .wakeAfter: "display.wake_after"
        case nil: nil
        }
    }

    /// `[display]`: nil when the file has no such table.
    static func decodeDisplay(
        _ root: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder
    ) -> DisplaySettings? {
        let section = decoder.section("display", of: root)
        guard !section.layers.isEmpty else { return nil }
        var values = DisplayValues(DisplaySettings())
        display.decode(section, into: &values, decoder: &decoder)
        do {
            return DisplaySettings(device: values.device, sleep: try values.sleep(), touch: values.touch)
        } catch {
            decoder.adopt(error.renamingKey(displayFileKey))
            return DisplaySettings(device: values.device, touch: values.touch)
        }
    }

    /// `[display]`: the display, and when it sleeps. `sleep_after` is in minutes, as people say
    /// it; the engine counts seconds. A quarter of a minute at least: a hallway's panel may sleep
    /// soon after the light goes, but not at a passing shadow.
    static let display = ConfigurationTable<DisplayValues>([
        .value(
            "device",
            read: { name, section, decoder in decodeDisplayDevice(name, in: section, decoder: &decoder) },
            write: { TOMLWriter.string($0.description) }, get: { $0.device },
            set: { $0.device = $1 }),
        .number("sleep_below", get: { $0.sleepBelow }, set: { $0.sleepBelow = $1 }),
        .number("wake_above", get: { $0.wakeAbove }, set: { $0.wakeAbove = $1 }),
        .number(
            "sleep_after", get: { $0.sleepAfter / 60 }, set: { $0.sleepAfter = $1 * 60 },
            refusing: { minutes in
                minutes.isFinite && minutes >= 0.25 && minutes <= 1440
                    ? nil
                    : "must be 0.25 to 1440 minutes of darkness, not \(ConfigurationFormat.number(minutes))"
            }),
        .number("wake_after", get: { $0.wakeAfter }, set: { $0.wakeAfter = $1 }),
        dailyWindows("awake", get: { $0.awake }, set: { $0.awake = $1 }),
        .boolean("touch", get: { $0.touch }, set: { $0.touch = $1 }),
    ])

    private static func decodeDisplayDevice(
        _ name: String, in section: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder
    ) -> DisplaySettings.Device? {
        decoder.parsedString(name, in: section, DisplaySettings.Device.init) { text in
            "\"\(text)\" is not a display: use \"auto\", a name in /sys/class/backlight"
                + " (\"rpi_backlight\"), its directory (an absolute path), \"ddc:BUS\", \"cec:N\" or \"wayland\""
        }
    }

    /// A key of times of day, read and written as `["07:00-22:00", …]` (`[display] awake`,
    /// `[whitepoint] night`).
    static func dailyWindows<Settings>(
        _ name: String, get: @escaping @Sendable (Settings) -> [DailyWindow]?,
        set: @escaping @Sendable (inout Settings, [DailyWindow]) -> Void
    ) -> ConfigurationKey<Settings> {
        .value(
            name, read: { name, section, decoder in decodeWindows(name, in: section, decoder: &decoder) },
            write: { windows in
                "[" + windows.map { TOMLWriter.string($0.description) }.joined(separator: ", ") + "]"
            },
            get: get, set: set)
    }

    private static func decodeWindows(
        _ name: String, in section: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder
    ) -> [DailyWindow]? {
        guard let (value, file) = decoder.value(name, in: section) else { return nil }
        let key = section.key(name)
        guard let items = value.array else {
            decoder.fail(
                key, "must be an array of times of day, like [\"07:00-22:00\"], not \(value.describedType)",
                file: file, line: value.position.line)
            return nil
        }
        var windows: [DailyWindow] = []
        for (index, item) in items.enumerated() {
            guard let text = item.string, let window = DailyWindow(text) else {
                decoder.fail(
                    key + "[\(index)]",
                    "must be a time of day \"HH:MM-HH:MM\" (24-hour, local), like \"07:00-22:00\"",
                    file: file, line: item.position.line)
                return nil
            }
            windows.append(window)
        }
        return windows
    }

    /// `[display]` as `ambience check` prints it; a comment when there is none.
    static func displayLines(_ settings: DisplaySettings?, path: String) -> [String] {
        guard let settings else {
            return ["", "# [display]: none, the display never sleeps with the room"]
        }
        return display.block(DisplayValues(settings), path: path)
    }
}

/// `[display]` as the file gives it, before the sleep engine's values are validated together.
struct DisplayValues {
    var device: DisplaySettings.Device
    var sleepBelow: Double
    var wakeAbove: Double
    var sleepAfter: Double
    var wakeAfter: Double
    var awake: [DailyWindow]
    var touch: Bool

    init(_ settings: DisplaySettings) {
        device = settings.device
        sleepBelow = settings.sleep.sleepBelow
        wakeAbove = settings.sleep.wakeAbove
        sleepAfter = settings.sleep.sleepAfter
        wakeAfter = settings.sleep.wakeAfter
        awake = settings.sleep.awake
        touch = settings.touch
    }

    func sleep() throws(ConfigurationError) -> DisplaySleepConfiguration {
        try DisplaySleepConfiguration(
            sleepBelow: sleepBelow, wakeAbove: wakeAbove, sleepAfter: sleepAfter, wakeAfter: wakeAfter,
            awake: awake)
    }
}

extension DaemonConfiguration {
    /// What `ambience check` says of `[display] device = "wayland"`, as comments: what the kiosk
    /// needs to carry the daemon's requests out (docs/display-sleep.md, "Wayland sessions").
    public func sessionDisplayAdvice(kioskPipe: String) -> [String] {
        guard displayDevice == .session else { return [] }
        var advice: [String] = []
        if !pipes.paths.contains(kioskPipe) {
            advice.append(
                "# [display] device = \"wayland\": ambience kiosk reads \(kioskPipe), which pipes.paths does"
                    + " not list: the outputs will not sleep")
        }
        if controlMode & 0o020 == 0 {
            advice.append(
                "# [display] device = \"wayland\": ambience kiosk tells the daemon what the outputs are through"
                    + " \(controlPipe), which only its owner may write: set control_group = \"ambience\" and"
                    + " control_mode = 0o620 (the kiosk's user is in that group)")
        }
        return advice.isEmpty ? [] : [""] + advice
    }
}
