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
        let configuration = tables.configuration
        rejectSharedPaths(
            [("state_file", configuration.stateFile), ("control_pipe", configuration.controlPipe)]
                + configuration.pipes.paths.enumerated().map { ("pipes.paths[\($0.offset)]", $0.element) },
            decoder: &decoder)
        return tables.valid
    }

    /// The top level of the file: its own keys, then its tables.
    static let topLevel = ConfigurationTable<DaemonTables>(
        [
            // Read with the layers, since it names the layer beneath the file.
            ConfigurationKey(
                "board", decode: { _, _, _ in },
                text: { tables, _ in
                    tables.configuration.board.map {
                        .comment("board = \(TOMLWriter.string($0))   (its values are merged below)")
                    }
                        ?? .omitted
                }),
            .absolutePath(
                "state_file", get: { $0.configuration.stateFile }, set: { $0.configuration.stateFile = $1 }),
            .absolutePath(
                "control_pipe", get: { $0.configuration.controlPipe },
                set: { $0.configuration.controlPipe = $1 }),
            .permissionBits(
                "control_mode", get: { $0.configuration.controlMode },
                set: { $0.configuration.controlMode = $1 }
            ),
            .string(
                "control_group", get: { $0.configuration.controlGroup },
                set: { $0.configuration.controlGroup = $1 },
                unset: "the daemon's own"),
            .absolutePath(
                "state_directory", get: { $0.configuration.stateDirectory },
                set: { $0.configuration.stateDirectory = $1 }),
            ConfigurationKey(
                "sensor",
                decode: { tables, root, decoder in
                    let (sensor, interval) = decodeSensor(root, decoder: &decoder)
                    if let sensor { tables.configuration.sensor = sensor }
                    tables.hasSensor = sensor != nil
                    tables.sampleInterval = interval
                },
                text: { tables, _ in
                    tables.hasSensor
                        ? .table(
                            sensorLines(
                                tables.configuration.sensor,
                                interval: tables.configuration.engine.sampleInterval))
                        : .omitted
                }),
            .table("filter", filter, get: { $0.engine }, set: { $0.engine = $1 }),
            .table("thresholds", thresholds, get: { $0.engine }, set: { $0.engine = $1 }),
            // The last of the engine's tables: its values are checked together here, before the
            // tables after it are read, so that the faults keep their order.
            .table("timing", timing, get: { $0.engine }, set: { $0.engine = $1 })
                .then { tables, _, decoder in tables.validateEngine(decoder: &decoder) },
            // The outputs' tables, each declared in its folder, in the order of their list.
        ] + DaemonOutputs.descriptors.compactMap { $0.table } + [
            // Companion programs' tables: each program decodes its own, in its own module, and
            // `ambience check` checks them all.
            .otherProgram("serve"), .otherProgram("mqtt"), .otherProgram("kiosk"),
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
