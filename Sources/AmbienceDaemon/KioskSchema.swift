import AmbienceCore
import AmbienceKiosk

/// The `[kiosk]` table: read by `ambience kiosk`, and checked with the rest of the file by the
/// daemon and `ambience check`, so that one file holds both and one command finds every fault.
extension DaemonConfiguration {
    static let kioskKeys = [
        "pipe", "restart", "restart_delay", "restart_delay_max", "answer_timeout", "stop_timeout",
        "user_data_dir",
    ]

    /// The `[kiosk]` table of the configuration at `path`; the defaults when the file has none.
    public static func loadKiosk(
        from path: String, files: some ConfigurationFiles = SystemConfigurationFiles()
    ) throws(ConfigFileErrors) -> KioskSettings {
        try ConfigurationDecoder.decodeCompanionTable(ofFileAt: path, files: files) { root, decoder in
            decodeKiosk(root, decoder: &decoder)
        }
    }

    static func decodeKiosk(_ root: Section, decoder: inout ConfigurationDecoder) -> KioskSettings {
        let section = decoder.section("kiosk", of: root)
        let states = AmbienceState.allCases.map(\.rawValue)
        decoder.allowOnly(kioskKeys + states, in: section)
        var settings = KioskSettings()
        settings.pipe = decoder.absolutePath("pipe", in: section) ?? settings.pipe
        settings.restart = decoder.boolean("restart", in: section) ?? settings.restart
        settings.restartDelay =
            seconds("restart_delay", in: section, within: 0.1...3600, decoder: &decoder)
            ?? settings.restartDelay
        settings.restartDelayLimit =
            seconds("restart_delay_max", in: section, within: 0.1...86400, decoder: &decoder)
            ?? settings.restartDelayLimit
        if settings.restartDelayLimit < settings.restartDelay {
            decoder.adopt(
                ConfigurationError(
                    key: section.key("restart_delay_max"),
                    message: "must be at least restart_delay (\(settings.restartDelay) s)"))
        }
        settings.answerTimeout =
            seconds("answer_timeout", in: section, within: 0.5...600, decoder: &decoder)
            ?? settings.answerTimeout
        settings.stopTimeout =
            seconds("stop_timeout", in: section, within: 0.1...600, decoder: &decoder) ?? settings.stopTimeout
        settings.userDataDirectory = decoder.absolutePath("user_data_dir", in: section)
        for state in AmbienceState.allCases {
            guard let appearance = decodeAppearance(state, of: section, decoder: &decoder) else { continue }
            switch state {
            case .invert: settings.invert = appearance
            case .regular: settings.regular = appearance
            case .contrast: settings.contrast = appearance
            }
        }
        return settings
    }

    /// `[kiosk.STATE]`: the whole feature set of that state, replacing its default one.
    private static func decodeAppearance(
        _ state: AmbienceState, of kiosk: Section, decoder: inout ConfigurationDecoder
    ) -> Appearance? {
        let section = decoder.section(state.rawValue, of: kiosk)
        guard !section.layers.isEmpty else { return nil }
        decoder.allowOnly(MediaFeature.known.map(\.name) + ["auto_dark_mode"], in: section)
        var features: [MediaFeature] = []
        for (name, values) in MediaFeature.known {
            guard let (text, line, file) = decoder.string(name, in: section) else { continue }
            guard values.contains(text) else {
                decoder.fail(
                    section.key(name),
                    "\"\(text)\" is not a value of \(name): use \(ConfigurationDecoder.alternatives(values))",
                    file: file, line: line)
                continue
            }
            features.append(MediaFeature(name, text))
        }
        return Appearance(features: features, autoDarkMode: decoder.boolean("auto_dark_mode", in: section))
    }

    private static func seconds(
        _ name: String, in section: Section, within range: ClosedRange<Double>,
        decoder: inout ConfigurationDecoder
    ) -> Double? {
        guard let value = decoder.number(name, in: section) else { return nil }
        guard range.contains(value) else {
            let origin = decoder.origins[section.key(name)]
            decoder.fail(
                section.key(name),
                "must be from \(ConfigurationFormat.number(range.lowerBound)) to \(ConfigurationFormat.number(range.upperBound)) seconds,"
                    + " not \(ConfigurationFormat.number(value))",
                file: origin?.file ?? decoder.mainFile, line: origin?.line)
            return nil
        }
        return value
    }
}
