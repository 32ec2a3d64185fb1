import AmbienceConfig
import AmbienceCore
import AmbienceI2C
import AmbienceSensors
import TOML

extension DaemonConfiguration {
    /// The daemon's tables as the daemon uses them, as TOML: every key written out, the board's
    /// values included, so the text stands alone and reads back to this same configuration
    /// (the board's name stays as a comment, since its values are already here).
    public var tomlText: String {
        Self.topLevel.lines(DaemonTables(self), path: "").joined(separator: "\n") + "\n"
    }

    /// `[sensor]` and every chip's table, in the order of `Chips.all`: the others' are checked
    /// too, and kept.
    static func sensorLines(_ sensor: SensorSettings, interval: Double) -> [String] {
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
        let chip = sensor.chip
        table(
            "[sensor]",
            [("kind", string(sensor.kind.rawValue))]
                + (chip.usesBus
                    ? [("bus", busText(sensor.bus)), ("address", sensor.address.description)] : [])
                + chip.sensorKeyValues(sensor.model).map { ($0.key, $0.value) }
                + [("interval", ConfigurationFormat.number(interval))]
                + (chip.usesBus ? [("force", String(sensor.force))] : []))
        for other in Chips.all where other.table != nil {
            lines.append("")
            lines.append(
                "[sensor.\(other.kind.rawValue)]"
                    + (other.kind == sensor.kind ? "" : "   # not used with this sensor kind"))
            lines += other.tableLines(sensor.chips[other.kind])
        }
        return lines
    }
}
