import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceSensors
import TOML

/// The schema: which keys each table takes, their types, ranges and defaults.
extension DaemonConfiguration {
    typealias Section = ConfigurationDecoder.Section

    static func decode(
        _ layers: [ConfigurationLayer], board: String?, decoder: inout ConfigurationDecoder
    ) -> DaemonConfiguration? {
        let root = ConfigurationDecoder.root(of: layers)
        decoder.allowOnly(
            [
                "board", "state_file", "control_pipe", "control_mode", "control_group", "state_directory",
                "sensor", "filter", "thresholds", "timing", "gpio", "pipes", "record", "backlight",
                // Companion programs' tables: each program decodes its own, in its own module,
                // and `ambience check` checks them all.
                "serve", "mqtt", "kiosk",
            ], in: root)
        let stateFile = decoder.absolutePath("state_file", in: root) ?? StateFileSink.defaultPath
        let controlPipe = decoder.absolutePath("control_pipe", in: root) ?? ControlPipe.defaultPath
        let controlMode = decoder.permissionBits("control_mode", in: root) ?? UInt32(ControlPipe.defaultMode)
        let controlGroup = decoder.string("control_group", in: root)?.value
        let stateDirectory =
            decoder.absolutePath("state_directory", in: root) ?? OverrideStore.defaultDirectory
        let (sensor, interval) = decodeSensor(root, decoder: &decoder)
        let engine = decodeEngine(root, sampleInterval: interval, decoder: &decoder)
        let gpio = decodeGPIO(root, decoder: &decoder)
        let pipes = decodePipes(root, decoder: &decoder)
        let record = decodeRecord(root, decoder: &decoder)
        let backlight = decodeBacklight(root, decoder: &decoder)
        rejectSharedPaths(
            [("state_file", stateFile), ("control_pipe", controlPipe)]
                + pipes.paths.enumerated().map { ("pipes.paths[\($0.offset)]", $0.element) },
            decoder: &decoder)
        guard let sensor else { return nil }
        var configuration = DaemonConfiguration(
            board: board, sensor: sensor, engine: engine, gpio: gpio, pipes: pipes, stateFile: stateFile,
            controlPipe: controlPipe, controlMode: controlMode, controlGroup: controlGroup,
            stateDirectory: stateDirectory)
        configuration.record = record
        configuration.backlight = backlight
        return configuration
    }

    /// `[record]`: whether the record of the light is kept on disk, how often it is written, and
    /// the size at which its file is rotated.
    private static func decodeRecord(_ root: Section, decoder: inout ConfigurationDecoder) -> RecordSettings {
        let section = decoder.section("record", of: root)
        decoder.allowOnly(["persist", "flush_interval", "max_bytes"], in: section)
        var settings = RecordSettings()
        settings.persist = decoder.boolean("persist", in: section) ?? settings.persist
        if let interval = decoder.number("flush_interval", in: section) {
            if interval.isFinite, interval >= 10, interval <= 86_400 {
                settings.flushInterval = interval
            } else {
                decoder.adopt(
                    ConfigurationError(
                        key: section.key("flush_interval"),
                        message: "must be 10 to 86400 seconds, not \(ConfigurationFormat.number(interval)):"
                            + " the record is written at most this often"))
            }
        }
        if let bytes = decoder.integer(
            "max_bytes", in: section, range: 100_000...1_000_000_000_000, meaning: "a size in bytes")
        {
            settings.maximumBytes = Int64(bytes)
        }
        return settings
    }

    /// `[sensor]`: the keys every chip shares here; each chip's descriptor reads its own (its
    /// table, or its keys here), for every chip, so that every table in the file is checked.
    private static func decodeSensor(
        _ root: Section, decoder: inout ConfigurationDecoder
    ) -> (SensorSettings?, interval: Double?) {
        let section = decoder.section("sensor", of: root)
        decoder.allowOnly(
            ["kind", "bus", "address", "interval", "force"] + Chips.all.flatMap { $0.sensorKeys }
                + Chips.all.filter { $0.tableKeys != nil }.map { $0.kind.rawValue }, in: section)
        let kinds = ConfigurationDecoder.alternatives(SensorSettings.Kind.allCases.map { $0.rawValue })
        let kind = decoder.choice(
            "kind", in: section, meaning: "a sensor kind", among: SensorSettings.Kind.allCases,
            spelled: { $0.rawValue }, parsing: SensorSettings.Kind.init(rawValue:))
        if !decoder.isGiven("kind", in: section) {
            decoder.missing("kind", in: section, "required: the light sensor, \(kinds)")
        }
        let chip = kind.map(Chips.descriptor)
        let bus = decodeBus(section, decoder: &decoder)
        let address = decoder.integer(
            "address", in: section, range: 0...0x7F, describe: ConfigurationFormat.hexadecimal,
            meaning: "a 7-bit I2C address"
        ).map { I2CAddress(rawValue: UInt8($0)) }
        if let chip, chip.usesBus, let address, !chip.addressValues.contains(address) {
            decoder.adopt(
                ConfigurationError(
                    key: section.key("address"),
                    message:
                        "\(address) is not an address of the \(chip.kind.rawValue), which answers at \(chip.addressChoices)"
                ))
        }
        let interval = decoder.number("interval", in: section)
        let force = decoder.boolean("force", in: section) ?? false
        let settings = Chips.all.map { $0.decode(sensor: section, chosen: kind, decoder: &decoder) }

        if let chip, !chip.usesBus {
            for key in ["bus", "address", "force"] {
                guard let (value, file) = decoder.value(key, in: section) else { continue }
                decoder.fail(
                    section.key(key),
                    "not used with kind = \"\(chip.kind.rawValue)\": the kernel driver has the chip, and"
                        + " \(chip.sensorKeys.joined(separator: ", ")) names it",
                    file: file, line: value.position.line)
            }
        }

        guard let kind else { return (nil, interval) }
        return (
            SensorSettings(kind: kind, bus: bus, address: address, force: force, settings: settings), interval
        )
    }

    /// A bus number, or the name of its adapter (a USB adapter's number changes; its name does not).
    private static func decodeBus(_ section: Section, decoder: inout ConfigurationDecoder) -> I2CBusSelector {
        if decoder.value("bus", in: section)?.value.string != nil {
            guard let (name, line, file) = decoder.string("bus", in: section) else {
                return .number(Defaults.bus)
            }
            if name.allSatisfy({ $0.isASCII && $0.isNumber }) {
                decoder.fail(
                    section.key("bus"),
                    "\"\(name)\" is a bus number: write it without quotes (bus = \(name)); a string names an adapter",
                    file: file, line: line)
            }
            return .name(name)
        }
        return .number(
            decoder.integer("bus", in: section, range: 0...Int(Int32.max), meaning: "an I2C bus number")
                ?? Defaults.bus)
    }

    /// Validated by the engine's own types, whose refusals are placed back in the file.
    private static func decodeEngine(
        _ root: Section, sampleInterval: Double?, decoder: inout ConfigurationDecoder
    ) -> EngineConfiguration {
        let defaults = EngineConfiguration.indoorKiosk
        let filter = decoder.section("filter", of: root)
        decoder.allowOnly(["tau"], in: filter)
        let tau = decoder.number("tau", in: filter) ?? defaults.timeConstant

        let thresholdsSection = decoder.section("thresholds", of: root)
        decoder.allowOnly(["invert_regular", "regular_contrast"], in: thresholdsSection)
        func boundary(_ name: String, default fallback: Boundary) -> Boundary {
            let section = decoder.section(name, of: thresholdsSection)
            decoder.allowOnly(["fall", "rise"], in: section)
            return Boundary(
                fall: decoder.number("fall", in: section) ?? fallback.fall,
                rise: decoder.number("rise", in: section) ?? fallback.rise)
        }
        let invertRegular = boundary("invert_regular", default: defaults.thresholds.invertRegular)
        let regularContrast = boundary("regular_contrast", default: defaults.thresholds.regularContrast)

        let timing = decoder.section("timing", of: root)
        decoder.allowOnly(["dwell", "latency", "fault_after"], in: timing)
        let dwell = decoder.number("dwell", in: timing) ?? defaults.minimumDwell
        let latency = decoder.number("latency", in: timing) ?? defaults.latencyBound
        let faultAfter = decoder.number("fault_after", in: timing) ?? defaults.faultAfter

        let thresholds: Thresholds
        do {
            thresholds = try Thresholds(invertRegular: invertRegular, regularContrast: regularContrast)
        } catch {
            decoder.adopt(error.renamingKey(fileKey))
            // Go on with the defaults so that the timing is checked too.
            thresholds = defaults.thresholds
        }
        do {
            return try EngineConfiguration(
                thresholds: thresholds, timeConstant: tau, minimumDwell: dwell, latencyBound: latency,
                sampleInterval: sampleInterval ?? defaults.sampleInterval, faultAfter: faultAfter)
        } catch {
            decoder.adopt(error.renamingKey(fileKey))
            return defaults
        }
    }

    /// Where the file keeps each of the engine's values.
    static func fileKey(_ field: String) -> String? {
        switch EngineField(rawValue: field) {
        case .invertRegular: "thresholds.invert_regular"
        case .invertRegularFall: "thresholds.invert_regular.fall"
        case .invertRegularRise: "thresholds.invert_regular.rise"
        case .regularContrast: "thresholds.regular_contrast"
        case .regularContrastFall: "thresholds.regular_contrast.fall"
        case .regularContrastRise: "thresholds.regular_contrast.rise"
        case .timeConstant: "filter.tau"
        case .minimumDwell: "timing.dwell"
        case .latencyBound: "timing.latency"
        case .sampleInterval: "sensor.interval"
        case .faultAfter: "timing.fault_after"
        case nil: nil
        }
    }

    /// libgpiod numbers lines with an unsigned int, and no chip has anywhere near this many.
    static let lineOffsetRange = 0...65_535

    private static func decodeGPIO(
        _ root: Section, decoder: inout ConfigurationDecoder
    ) -> GPIOIndicator.Configuration? {
        let section = decoder.section("gpio", of: root)
        guard !section.layers.isEmpty else { return nil }
        decoder.allowOnly(["chip", "lines", "fault", "active_low"], in: section)
        let chip = decoder.string("chip", in: section)?.value
        let range = lineOffsetRange

        // The lines are one setting: a file that gives them replaces the board's set whole, so
        // that choosing fewer lines than the board suggests is possible.
        let everyLines = decoder.section("lines", of: section)
        let states = AmbienceState.allCases.map { $0.rawValue }
        decoder.allowOnly(states, in: everyLines)
        let lines = Section(path: everyLines.path, layers: Array(everyLines.layers.prefix(1)))
        var offsets: [AmbienceState: UInt32] = [:]
        for state in AmbienceState.allCases {
            if let offset = decoder.integer(state.rawValue, in: lines, range: range, meaning: "a line offset")
            {
                offsets[state] = UInt32(offset)
            }
        }
        let fault = decoder.integer("fault", in: section, range: range, meaning: "a line offset")
        let activeLow = decoder.boolean("active_low", in: section) ?? false
        let lineSettings = GPIOIndicator.Configuration(
            chip: chip ?? "", lines: offsets, fault: fault.map(UInt32.init), activeLow: activeLow)
        for repeated in lineSettings.repeatedLines() {
            decoder.adopt(repeated.renamingKey { section.key($0) })
        }
        guard !offsets.isEmpty || fault != nil else { return nil }
        guard let chip else {
            if !section.layers.contains(where: { $0.table["chip"] != nil }) {
                decoder.missing(
                    "chip", in: section,
                    "required with indicator lines: the chip's name (gpiochip0), path (/dev/gpiochip0)"
                        + " or label (pinctrl-bcm2711)")
            }
            return nil
        }
        return GPIOIndicator.Configuration(
            chip: chip, lines: offsets, fault: fault.map(UInt32.init), activeLow: activeLow)
    }

    private static func decodePipes(_ root: Section, decoder: inout ConfigurationDecoder) -> PipeSettings {
        let section = decoder.section("pipes", of: root)
        decoder.allowOnly(["paths", "format", "mode", "group"], in: section)
        var settings = PipeSettings()
        if let (value, file) = decoder.value("paths", in: section) {
            if let items = value.array {
                settings.paths = []
                for (index, item) in items.enumerated() {
                    let key = section.key("paths") + "[\(index)]"
                    guard let path = item.string else {
                        decoder.fail(
                            key, "must be a string, not \(item.describedType)", file: file,
                            line: item.position.line)
                        continue
                    }
                    if let path = decoder.checkAbsolute(path, key: key, file: file, line: item.position.line)
                    {
                        settings.paths.append(path)
                    }
                }
            } else {
                decoder.fail(
                    section.key("paths"),
                    "must be an array of paths, like [\"/run/ambience/state\"],"
                        + " not \(value.describedType)", file: file, line: value.position.line)
            }
        }
        settings.format = decoder.choice("format", in: section, meaning: "a pipe format") ?? settings.format
        settings.mode = decoder.permissionBits("mode", in: section) ?? settings.mode
        settings.group = decoder.string("group", in: section)?.value
        return settings
    }

    /// The daemon writes to each of these paths; two settings naming the same one would make it
    /// read its own events as commands, or write two streams into one pipe.
    private static func rejectSharedPaths(
        _ paths: [(key: String, path: String)], decoder: inout ConfigurationDecoder
    ) {
        for (index, entry) in paths.enumerated() {
            if let first = paths[..<index].first(where: { $0.path == entry.path }) {
                // Items of an array have no key of their own to be placed by.
                let key = entry.key.hasPrefix("pipes.paths[") ? "pipes.paths" : entry.key
                decoder.adopt(
                    ConfigurationError(key: key, message: "\"\(entry.path)\" is already \(first.key)"))
            }
        }
    }
}
