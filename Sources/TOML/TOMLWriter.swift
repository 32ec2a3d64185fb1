/// Writes values as TOML text that this parser, and any standard one, reads back unchanged.
public enum TOMLWriter {
    /// A key, bare when TOML allows it, quoted otherwise.
    public static func key(_ name: String) -> String {
        !name.isEmpty && name.utf8.allSatisfy(ASCII.isBareKey) ? name : string(name)
    }

    /// A basic string, with quotes, backslashes and control characters escaped.
    public static func string(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            case "\u{08}": quoted += "\\b"
            case "\u{0C}": quoted += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted += "\\u" + ASCII.codePoint(scalar.value).dropFirst(2)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    /// The shortest digits that read back as the same Double, always recognisably a float.
    public static func float(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        // Swift's description is the shortest round-trip form and always has a '.' or an exponent.
        return value.description
    }

    /// Any value, written on one line: arrays as `[a, b]`, tables as `{ k = v }`.
    public static func inline(_ content: TOMLValue.Content) -> String {
        switch content {
        case .string(let text): string(text)
        case .integer(let value): String(value)
        case .float(let value): float(value)
        case .boolean(let value): value ? "true" : "false"
        case .array(let items): "[" + items.map { inline($0.content) }.joined(separator: ", ") + "]"
        case .table(let table):
            table.isEmpty
                ? "{}"
                : "{ "
                    + table.entries.map { key($0.key) + " = " + inline($0.value.content) }
                    .joined(separator: ", ") + " }"
        }
    }
}
