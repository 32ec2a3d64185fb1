import AmbienceConfig
import AmbienceCore
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors
import TOML

/// The schema: the keys of each table, declared once with their types, ranges and defaults, as
/// the file is read and as `ambience check` writes it back.
extension DaemonConfiguration {
    typealias Section = ConfigurationDecoder.Section

    static func decode(
        _ layers: [ConfigurationLayer], board: String?, decoder: inout ConfigurationDecoder
    ) -> DaemonConfiguration? {
        var tables = DaemonTables(board: board)
        topLevel.decode(ConfigurationDecoder.root(of: layers), into: &tables, decoder: &decoder)
        rejectSharedPaths(
            [("state_file", tables.stateFile), ("control_pipe", tables.controlPipe)]
                + tables.pipes.paths.enumerated().map { ("pipes.paths[\($0.offset)]", $0.element) },
            decoder: &decoder)
        return tables.configuration
    }

    /// The top level of the file: its own keys, then its tables.
    static let topLevel = ConfigurationTable<DaemonTables>([
        // Read with the layers, since it names the layer beneath the file.
        ConfigurationKey(
            "board", decode: { _, _, _ in },
            text: { tables, _ in
                tables.board.map {
                    .comment("board = \(TOMLWriter.string($0))   (its values are merged below)")
                }
                    ?? .omitted
            }),
        .absolutePath("state_file", get: { $0.stateFile }, set: { $0.stateFile = $1 }),
        .absolutePath("control_pipe", get: { $0.controlPipe }, set: { $0.controlPipe = $1 }),
        .permissionBits("control_mode", get: { $0.controlMode }, set: { $0.controlMode = $1 }),
        .string(
            "control_group", get: { $0.controlGroup }, set: { $0.controlGroup = $1 },
            unset: "the daemon's own"),
        .absolutePath("state_directory", get: { $0.stateDirectory }, set: { $0.stateDirectory = $1 }),
        ConfigurationKey(
            "sensor",
            decode: { tables, root, decoder in
                (tables.sensor, tables.sampleInterval) = decodeSensor(root, decoder: &decoder)
            },
            text: { tables, _ in
                tables.sensor.map { .table(sensorLines($0, interval: tables.validEngine.sampleInterval)) }
                    ?? .omitted
            }),
        .table("filter", filter, get: { $0.engine }, set: { $0.engine = $1 }),
        .table("thresholds", thresholds, get: { $0.engine }, set: { $0.engine = $1 }),
        // The last of the engine's tables: its values are checked together here, before the
        // tables after it are read, so that the faults keep their order.
        .table("timing", timing, get: { $0.engine }, set: { $0.engine = $1 })
            .then { tables, _, decoder in tables.validateEngine(decoder: &decoder) },
        ConfigurationKey(
            "gpio", decode: { tables, root, decoder in tables.gpio = decodeGPIO(root, decoder: &decoder) },
            text: { tables, path in
                .table(
                    tables.gpio.map { gpio.block($0, path: path) } ?? ["", "# [gpio]: no indicator lines"])
            }),
        .table("pipes", pipes, get: { $0.pipes }, set: { $0.pipes = $1 }),
        .table("record", record, get: { $0.record }, set: { $0.record = $1 }),
        ConfigurationKey(
            "backlight",
            decode: { tables, root, decoder in tables.backlight = decodeBacklight(root, decoder: &decoder) },
            text: { tables, path in .table(backlightLines(tables.backlight, path: path)) }),
        ConfigurationKey(
            "display",
            decode: { tables, root, decoder in tables.display = decodeDisplay(root, decoder: &decoder) },
            text: { tables, path in .table(displayLines(tables.display, path: path)) }
        )
        .then { tables, root, decoder in
            // The kiosk reads what is asked of a session's outputs in the JSON lines alone.
            guard tables.display?.device == .session, tables.pipes.format != .json else { return }
            decoder.adopt(
                ConfigurationError(
                    key: decoder.section("display", of: root).key("device"),
                    message:
                        "\"wayland\" is asked of ambience kiosk in JSON lines: [pipes] format must be \"json\""
                ))
        },
        // Companion programs' tables: each program decodes its own, in its own module, and
        // `ambience check` checks them all.
        .otherProgram("serve"), .otherProgram("mqtt"), .otherProgram("kiosk"),
    ])

    /// `[record]`: whether the record of the light is kept on disk, how often it is written, and
    /// the size at which its file is rotated.
    static let record = ConfigurationTable<RecordSettings>([
        .boolean("persist", get: { $0.persist }, set: { $0.persist = $1 }),
        .number(
            "flush_interval", get: { $0.flushInterval }, set: { $0.flushInterval = $1 },
            refusing: { interval in
                interval.isFinite && interval >= 10 && interval <= 86_400
                    ? nil
                    : "must be 10 to 86400 seconds, not \(ConfigurationFormat.number(interval)):"
                        + " the record is written at most this often"
            }),
        .integer(
            "max_bytes", range: 100_000...2_000_000_000, meaning: "a size in bytes",
            get: { Int($0.maximumBytes) }, set: { $0.maximumBytes = Int64($1) }),
    ])

    /// `[filter]`, `[thresholds]` and `[timing]`: the engine's values, validated by the engine's
    /// own types once the three are read, their refusals placed back in the file.
    static let filter = ConfigurationTable<EngineValues>([
        .number("tau", get: { $0.timeConstant }, set: { $0.timeConstant = $1 })
    ])

    static let thresholds = ConfigurationTable<EngineValues>([
        .inlineTable("invert_regular", boundary, get: { $0.invertRegular }, set: { $0.invertRegular = $1 }),
        .inlineTable(
            "regular_contrast", boundary, get: { $0.regularContrast }, set: { $0.regularContrast = $1 }),
    ])

    static let boundary = ConfigurationTable<Boundary>([
        .number("fall", get: { $0.fall }, set: { $0.fall = $1 }),
        .number("rise", get: { $0.rise }, set: { $0.rise = $1 }),
    ])

    static let timing = ConfigurationTable<EngineValues>([
        .number("dwell", get: { $0.minimumDwell }, set: { $0.minimumDwell = $1 }),
        .number("latency", get: { $0.latencyBound }, set: { $0.latencyBound = $1 }),
        .number("fault_after", get: { $0.faultAfter }, set: { $0.faultAfter = $1 }),
    ])

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

    static let pipes = ConfigurationTable<PipeSettings>([
        .value(
            "paths", read: { name, section, decoder in decodePaths(name, in: section, decoder: &decoder) },
            write: { "[" + $0.map(TOMLWriter.string).joined(separator: ", ") + "]" },
            get: { $0.paths }, set: { $0.paths = $1 }),
        .choice(
            "format", meaning: "a pipe format", among: EventLine.Format.allCases, spelled: { $0.rawValue },
            parsing: { EventLine.Format(rawValue: $0) }, get: { $0.format }, set: { $0.format = $1 }),
        .permissionBits("mode", get: { $0.mode }, set: { $0.mode = $1 }),
        .string("group", get: { $0.group }, set: { $0.group = $1 }, unset: "the daemon's own"),
    ])

    /// `[sensor]`: the keys every chip shares here; each chip's descriptor reads its own (its
    /// table, or its keys here), for every chip, so that every table in the file is checked.
    private static func decodeSensor(
        _ root: Section, decoder: inout ConfigurationDecoder
    ) -> (SensorSettings?, interval: Double?) {
        let section = decoder.section("sensor", of: root)
        decoder.allowOnly(
            ["kind", "bus", "address", "interval", "force"] + Chips.all.flatMap { $0.sensorKeys }
                + Chips.all.filter { $0.table != nil }.map { $0.kind.rawValue }, in: section)
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

    /// `[gpio]`: nil when the file and its board give no indicator line.
    private static func decodeGPIO(
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

    /// `[pipes] paths`: the valid paths of the array, each fault placed at its item.
    private static func decodePaths(
        _ name: String, in section: Section, decoder: inout ConfigurationDecoder
    ) -> [String]? {
        guard let (value, file) = decoder.value(name, in: section) else { return nil }
        guard let items = value.array else {
            decoder.fail(
                section.key(name),
                "must be an array of paths, like [\"/run/ambience/state\"],"
                    + " not \(value.describedType)", file: file, line: value.position.line)
            return nil
        }
        var paths: [String] = []
        for (index, item) in items.enumerated() {
            let key = section.key(name) + "[\(index)]"
            guard let path = item.string else {
                decoder.fail(
                    key, "must be a string, not \(item.describedType)", file: file, line: item.position.line)
                continue
            }
            if let path = decoder.checkAbsolute(path, key: key, file: file, line: item.position.line) {
                paths.append(path)
            }
        }
        return paths
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
