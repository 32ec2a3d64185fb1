import AmbienceClient
import AmbienceCore

/// One CSS media feature as `Emulation.setEmulatedMedia` takes it: `prefers-color-scheme: dark`.
public struct MediaFeature: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// The features a kiosk may set, with the values Chromium accepts for each.
    public static let known: [(name: String, values: [String])] = [
        ("prefers-color-scheme", ["light", "dark"]),
        ("prefers-contrast", ["no-preference", "more", "less", "custom"]),
        ("forced-colors", ["none", "active"]),
        ("prefers-reduced-motion", ["no-preference", "reduce"]),
        ("prefers-reduced-transparency", ["no-preference", "reduce"]),
        ("prefers-reduced-data", ["no-preference", "reduce"]),
    ]
}

/// What the pages are told in one state: the whole feature set (each `setEmulatedMedia`
/// replaces the one before, so a feature left out goes back to the browser's own value) and,
/// for pages with no dark theme of their own, Chromium's automatic dark mode.
public struct Appearance: Equatable, Sendable {
    public var features: [MediaFeature]
    /// nil: the browser's own setting, never overridden.
    public var autoDarkMode: Bool?

    public init(features: [MediaFeature], autoDarkMode: Bool? = nil) {
        self.features = features
        self.autoDarkMode = autoDarkMode
    }

    public static func defaultAppearance(for state: AmbienceState) -> Appearance {
        switch state {
        case .invert: Appearance(features: [MediaFeature("prefers-color-scheme", "dark")])
        case .regular: Appearance(features: [MediaFeature("prefers-color-scheme", "light")])
        case .contrast:
            Appearance(features: [
                MediaFeature("prefers-color-scheme", "light"), MediaFeature("prefers-contrast", "more"),
            ])
        }
    }
}

/// The `[kiosk]` table of the configuration file, with its defaults.
public struct KioskSettings: Equatable, Sendable {
    public static let defaultPipe = "/run/ambience/kiosk"

    /// The named pipe the kiosk follows: one of the daemon's `pipes.paths`.
    public var pipe: String
    /// The daemon's control pipe (the file's top-level `control_pipe`): where the kiosk says what
    /// a Wayland session's outputs are, for `[display] device = "wayland"`.
    public var controlPipe = RuntimePaths.controlPipe
    /// The panel's own white (the file's `[whitepoint] native`), which the lines' white is
    /// shown against: a white equal to it leaves the pages as they are.
    public var nativeWhite = WhitePointConfiguration.roomWhite.native
    public var invert: Appearance
    public var regular: Appearance
    public var contrast: Appearance
    /// Start the browser again when it exits, after `restartDelay` seconds, doubled after each
    /// quick exit up to `restartDelayLimit`.
    public var restart: Bool
    public var restartDelay: Double
    public var restartDelayLimit: Double
    /// How long the browser has to answer its first DevTools command.
    public var answerTimeout: Double
    /// How long the browser has to end after SIGTERM before it gets SIGKILL.
    public var stopTimeout: Double
    /// The browser's profile when its arguments name none; nil: the kiosk's default.
    public var userDataDirectory: String?

    public init(
        pipe: String = KioskSettings.defaultPipe,
        invert: Appearance = .defaultAppearance(for: .invert),
        regular: Appearance = .defaultAppearance(for: .regular),
        contrast: Appearance = .defaultAppearance(for: .contrast),
        restart: Bool = false, restartDelay: Double = 1, restartDelayLimit: Double = 60,
        answerTimeout: Double = 60, stopTimeout: Double = 5, userDataDirectory: String? = nil
    ) {
        self.pipe = pipe
        self.invert = invert
        self.regular = regular
        self.contrast = contrast
        self.restart = restart
        self.restartDelay = restartDelay
        self.restartDelayLimit = restartDelayLimit
        self.answerTimeout = answerTimeout
        self.stopTimeout = stopTimeout
        self.userDataDirectory = userDataDirectory
    }

    public func appearance(for state: AmbienceState) -> Appearance {
        switch state {
        case .invert: invert
        case .regular: regular
        case .contrast: contrast
        }
    }

    /// Whether any state overrides automatic dark mode: then every state sets it, on or back
    /// to the browser's own, so that leaving that state undoes it.
    public var overridesAutoDarkMode: Bool {
        [invert, regular, contrast].contains { $0.autoDarkMode != nil }
    }
}
