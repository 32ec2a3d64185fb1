import AmbienceConfig
import AmbienceCore
import TOML

/// The `[kiosk]` table: read by `ambience kiosk`, and checked with the rest of the file by
/// `ambience check`, so that one file holds every program's table and one command finds every fault.
extension KioskSettings {
    public typealias Section = ConfigurationDecoder.Section

    static let keys = [
        "pipe", "restart", "restart_delay", "restart_delay_max", "answer_timeout", "stop_timeout",
        "user_data_dir",
    ]

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
        let section = decoder.section("kiosk", of: root)
        let states = AmbienceState.allCases.map { $0.rawValue }
        decoder.allowOnly(keys + states, in: section)
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
        decoder.allowOnly(MediaFeature.known.map { $0.name } + ["auto_dark_mode"], in: section)
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

extension KioskSettings {
    /// The `[kiosk]` tables as the kiosk uses them, as TOML, for `ambience check` to show after
    /// the daemon's: every key written out, each table after a blank line.
    public var tomlText: String {
        func string(_ text: String) -> String { TOMLWriter.string(text) }
        var lines: [String] = []
        func table(_ header: String, _ entries: [(String, String)]) {
            lines.append("")
            lines.append(header)
            lines += entries.map { "\($0.0) = \($0.1)" }
        }
        typealias Format = ConfigurationFormat
        table(
            "[kiosk]",
            [
                ("pipe", string(pipe)), ("restart", String(restart)),
                ("restart_delay", Format.number(restartDelay)),
                ("restart_delay_max", Format.number(restartDelayLimit)),
                ("answer_timeout", Format.number(answerTimeout)),
                ("stop_timeout", Format.number(stopTimeout)),
            ] + (userDataDirectory.map { [("user_data_dir", string($0))] } ?? []))
        if userDataDirectory == nil {
            lines.append("# user_data_dir: $XDG_STATE_HOME/ambience/kiosk-browser, else ~/.local/state/…")
        }
        for state in AmbienceState.allCases {
            let appearance = appearance(for: state)
            table(
                "[kiosk.\(state.rawValue)]",
                appearance.features.map { ($0.name, string($0.value)) }
                    + (appearance.autoDarkMode.map { [("auto_dark_mode", String($0))] } ?? []))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
