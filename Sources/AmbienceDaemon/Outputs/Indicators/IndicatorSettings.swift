import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import TOML

extension OutputDescriptor {
    /// The indicator lines (`[gpio]`): a GPIO line per state, and one for a sensor fault.
    static let indicators = OutputDescriptor(
        table: ConfigurationKey(
            "gpio",
            decode: { tables, root, decoder in
                tables.configuration.gpio = DaemonConfiguration.decodeGPIO(root, decoder: &decoder)
            },
            text: { tables, path in
                .table(
                    tables.configuration.gpio.map { DaemonConfiguration.gpio.block($0, path: path) }
                        ?? ["", "# [gpio]: no indicator lines"])
            }),
        device: .indicators,
        make: { _ in SinkOutput() })
}

extension DaemonPart {
    public static let indicators = DaemonPart("indicators")
}

extension OutputDeviceDescriptor {
    /// The lines of `[gpio]`, or what stands in for them.
    static let indicators = OutputDeviceDescriptor(
        part: .indicators, changed: { $0.gpio != $1.gpio },
        build: { configuration, devices throws(OutputError) in
            try devices.indicators(configuration.gpio).map { SinkDevice([$0]) }
        })
}

extension DaemonConfiguration {
    /// `[gpio]`; nil when no indicator line is configured.
    public var gpio: GPIOIndicator.Configuration? {
        get { outputs["gpio", default: nil] }
        set { outputs["gpio", default: nil] = newValue }
    }
}

extension DaemonConfiguration {
    /// `[gpio]`; the chip is required with lines, which `decodeGPIO` checks.
    static let gpio = ConfigurationTable<GPIOIndicator.Configuration>([
        .string("chip", get: { $0.chip }, set: { $0.chip = $1 }),
        // The lines are one setting: a file that gives them replaces the board's set whole, so
        // that choosing fewer lines than the board suggests is possible.
        .inlineTable("lines", gpioLines, replacedWhole: true, get: { $0.lines }, set: { $0.lines = $1 }),
        .integer(
            "fault", range: lineOffsetRange, meaning: "a line offset", get: { $0.fault.map(Int.init) },
            set: { $0.fault = UInt32($1) }),
        .boolean("active_low", get: { $0.activeLow }, set: { $0.activeLow = $1 }),
    ])

    static let gpioLines = ConfigurationTable<[AmbienceState: UInt32]>(
        AmbienceState.allCases.map { state in
            .integer(
                state.rawValue, range: lineOffsetRange, meaning: "a line offset",
                get: { $0[state].map(Int.init) },
                set: { $0[state] = UInt32($1) })
        })

    /// libgpiod numbers lines with an unsigned int, and no chip has anywhere near this many.
    static let lineOffsetRange = 0...65_535

    /// `[gpio]`: nil when the file and its board give no indicator line.
    static func decodeGPIO(
        _ root: Section, decoder: inout ConfigurationDecoder
    ) -> GPIOIndicator.Configuration? {
        let section = decoder.section("gpio", of: root)
        guard !section.layers.isEmpty else { return nil }
        var settings = GPIOIndicator.Configuration(chip: "", lines: [:])
        gpio.decode(section, into: &settings, decoder: &decoder)
        for repeated in settings.repeatedLines() {
            decoder.adopt(repeated.renamingKey { section.key($0) })
        }
        guard !settings.lines.isEmpty || settings.fault != nil else { return nil }
        guard !settings.chip.isEmpty else {
            if !section.layers.contains(where: { $0.table["chip"] != nil }) {
                decoder.missing(
                    "chip", in: section,
                    "required with indicator lines: the chip's name (gpiochip0), path (/dev/gpiochip0)"
                        + " or label (pinctrl-bcm2711)")
            }
            return nil
        }
        return settings
    }
}
