import AmbienceConfig
import AmbienceCore
import AmbienceSensors
import TOML

extension DaemonConfiguration {
    /// The daemon's tables as the daemon uses them, as TOML: every key written out, the board's
    /// values included, so the text stands alone and reads back to this same configuration
    /// (the board's name stays as a comment, since its values are already here).
    public var tomlText: String {
        typealias Format = ConfigurationFormat
        func string(_ text: String) -> String { TOMLWriter.string(text) }
        func busText(_ bus: I2CBusSelector) -> String {
            switch bus {
            case .number(let number): String(number)
            case .name(let name): string(name)
            }
        }
        var lines: [String] = []
        func table(_ header: String, _ entries: [(String, String)]) {
            lines.append("")
            lines.append(header)
            lines += entries.map { "\($0.0) = \($0.1)" }
        }

        if let board {
            lines.append("# board = \(string(board))   (its values are merged below)")
        }
        lines.append("state_file = \(string(stateFile))")
        lines.append("control_pipe = \(string(controlPipe))")
        lines.append("control_mode = \(Format.octal(Int64(controlMode)))")
        if let controlGroup {
            lines.append("control_group = \(string(controlGroup))")
        } else {
            lines.append("# control_group: the daemon's own")
        }
        lines.append("state_directory = \(string(stateDirectory))")

        let chip = sensor.chip
        table(
            "[sensor]",
            [("kind", string(sensor.kind.rawValue))]
                + (chip.usesBus
                    ? [("bus", busText(sensor.bus)), ("address", sensor.address.description)] : [])
                + chip.render(sensor.model).sensorKeys.map { ($0.key, $0.value) }
                + [("interval", Format.number(engine.sampleInterval))]
                + (chip.usesBus ? [("force", String(sensor.force))] : []))
        // Every chip's table, in the order of `Chips.all`: the others' are checked too, and kept.
        for other in Chips.all where other.tableKeys != nil {
            let rendering = other.render(sensor.chips[other.kind])
            table(
                "[sensor.\(other.kind.rawValue)]"
                    + (other.kind == sensor.kind ? "" : "   # not used with this sensor kind"),
                rendering.table.map { ($0.key, $0.value) })
            lines += rendering.comments
        }

        table("[filter]", [("tau", Format.number(engine.timeConstant))])
        func boundary(_ boundary: Boundary) -> String {
            "{ fall = \(Format.number(boundary.fall)), rise = \(Format.number(boundary.rise)) }"
        }
        table(
            "[thresholds]",
            [
                ("invert_regular", boundary(engine.thresholds.invertRegular)),
                ("regular_contrast", boundary(engine.thresholds.regularContrast)),
            ])
        table(
            "[timing]",
            [
                ("dwell", Format.number(engine.minimumDwell)),
                ("latency", Format.number(engine.latencyBound)),
                ("fault_after", Format.number(engine.faultAfter)),
            ])

        if let gpio {
            let offsets = AmbienceState.allCases.compactMap { state in
                gpio.lines[state].map { "\(state.rawValue) = \($0)" }
            }
            var entries = [
                ("chip", string(gpio.chip)),
                ("lines", offsets.isEmpty ? "{}" : "{ " + offsets.joined(separator: ", ") + " }"),
            ]
            if let fault = gpio.fault { entries.append(("fault", String(fault))) }
            entries.append(("active_low", String(gpio.activeLow)))
            table("[gpio]", entries)
        } else {
            lines += ["", "# [gpio]: no indicator lines"]
        }

        var pipeEntries = [
            ("paths", "[" + pipes.paths.map(string).joined(separator: ", ") + "]"),
            ("format", string(pipes.format.rawValue)), ("mode", Format.octal(Int64(pipes.mode))),
        ]
        if let group = pipes.group { pipeEntries.append(("group", string(group))) }
        table("[pipes]", pipeEntries)
        if pipes.group == nil { lines.append("# group: the daemon's own") }
        table(
            "[record]",
            [
                ("persist", String(record.persist)), ("flush_interval", Format.number(record.flushInterval)),
                ("max_bytes", String(record.maximumBytes)),
            ])
        lines += backlightLines()

        return lines.joined(separator: "\n") + "\n"
    }
}
