import AmbienceConfig
import AmbienceCore
import TOML

/// The `[kiosk]` table: read by `ambience kiosk`, and checked with the rest of the file by
/// `ambience check`, so that one file holds every program's table and one command finds every fault.
extension KioskSettings {
    public typealias Section = ConfigurationDecoder.Section

    /// The `[kiosk]` table of the configuration at `path`; the defaults when the file has none.
    public static func load(
        from path: String, files: some ConfigurationFiles = SystemConfigurationFiles()
    ) throws(ConfigFileErrors) -> KioskSettings {
        try ConfigurationSource.decodeTable(ofFileAt: path, files: files) { root, decoder in
            decode(root, decoder: &decoder)
        }
    }

    /// For `ambience check`.
    public static let table = ProgramTable(name: "kiosk", checkedWhenAbsent: true) { root, decoder in
        _ = decode(root, decoder: &decoder)
    }

    /// The table out of the file's top level, its faults into `decoder`.
    public static func decode(_ root: Section, decoder: inout ConfigurationDecoder) -> KioskSettings {
        var settings = KioskSettings()
        // The daemon's, where the kiosk says what a Wayland session's outputs are.
        if let control = decoder.absolutePath("control_pipe", in: root) { settings.controlPipe = control }
        // The daemon's too, checked there: what the pages' white is relative to.
        if let native = decoder.number("native", in: decoder.section("whitepoint", of: root)) {
            settings.nativeWhite = native
        }
        keys.decode(decoder.section("kiosk", of: root), into: &settings, decoder: &decoder)
        return settings
    }

    /// The keys of `[kiosk]`.
    static let keys = ConfigurationTable<KioskSettings>(
        [
            .absolutePath("pipe", get: { $0.pipe }, set: { $0.pipe = $1 }),
            .boolean("restart", get: { $0.restart }, set: { $0.restart = $1 }),
            .number(
                "restart_delay", get: { $0.restartDelay }, set: { $0.restartDelay = $1 },
                refusing: seconds(within: 0.1...3600)),
            .number(
                "restart_delay_max", get: { $0.restartDelayLimit }, set: { $0.restartDelayLimit = $1 },
                refusing: seconds(within: 0.1...86400)
            )
            .then { settings, section, decoder in
                if settings.restartDelayLimit < settings.restartDelay {
                    decoder.adopt(
                        ConfigurationError(
                            key: section.key("restart_delay_max"),
                            message: "must be at least restart_delay (\(settings.restartDelay) s)"))
                }
            },
            .number(
                "answer_timeout", get: { $0.answerTimeout }, set: { $0.answerTimeout = $1 },
                refusing: seconds(within: 0.5...600)),
            .number(
                "stop_timeout", get: { $0.stopTimeout }, set: { $0.stopTimeout = $1 },
                refusing: seconds(within: 0.1...600)),
            .absolutePath(
                "user_data_dir", get: { $0.userDataDirectory }, set: { $0.userDataDirectory = $1 },
                unset: "$XDG_STATE_HOME/ambience/kiosk-browser, else ~/.local/state/…"),
        ] + AmbienceState.allCases.map(appearanceKey))

    /// `[kiosk.STATE]`: the whole feature set of that state, replacing its default one.
    private static func appearanceKey(_ state: AmbienceState) -> ConfigurationKey<KioskSettings> {
        ConfigurationKey(
            state.rawValue,
            decode: { settings, kiosk, decoder in
                let section = decoder.section(state.rawValue, of: kiosk)
                guard !section.layers.isEmpty else { return }
                var appearance = Appearance(features: [])
                appearanceKeys.decode(section, into: &appearance, decoder: &decoder)
                settings.setAppearance(appearance, for: state)
            },
            text: { settings, path in
                .table(appearanceKeys.block(settings.appearance(for: state), path: path))
            })
    }

    static let appearanceKeys = ConfigurationTable<Appearance>(
        MediaFeature.known.map { name, values in
            .value(
                name,
                read: { name, section, decoder in
                    decoder.parsedString(name, in: section, { values.contains($0) ? $0 : nil }) { text in
                        "\"\(text)\" is not a value of \(name): use \(ConfigurationDecoder.alternatives(values))"
                    }
                },
                write: { TOMLWriter.string($0) },
                get: { appearance in appearance.features.first { $0.name == name }?.value },
                set: { appearance, value in appearance.features.append(MediaFeature(name, value)) })
        } + [.boolean("auto_dark_mode", get: { $0.autoDarkMode }, set: { $0.autoDarkMode = $1 })])

    /// The refusal of a number of seconds out of `range`.
    private static func seconds(within range: ClosedRange<Double>) -> @Sendable (Double) -> String? {
        { value in
            range.contains(value)
                ? nil
                : "must be from \(ConfigurationFormat.number(range.lowerBound)) to"
                    + " \(ConfigurationFormat.number(range.upperBound)) seconds, not \(ConfigurationFormat.number(value))"
        }
    }
}

extension KioskSettings {
    /// The `[kiosk]` tables as the kiosk uses them, as TOML, for `ambience check` to show after
    /// the daemon's: every key written out, each table after a blank line.
    public var tomlText: String {
        Self.keys.block(self, path: "kiosk").joined(separator: "\n") + "\n"
    }

    mutating func setAppearance(_ appearance: Appearance, for state: AmbienceState) {
        switch state {
        case .invert: invert = appearance
        case .regular: regular = appearance
        case .contrast: contrast = appearance
        }
    }
}
