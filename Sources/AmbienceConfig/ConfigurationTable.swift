import TOML

/// A table of the configuration as its keys declare it: the keys it accepts, read in the order
/// they are declared, and written back by `ambience check` in that order.
public struct ConfigurationTable<Settings>: Sendable {
    public let keys: [ConfigurationKey<Settings>]

    public init(_ keys: [ConfigurationKey<Settings>]) {
        self.keys = keys
    }

    public var names: [String] { keys.map { $0.name } }

    /// Refuses every key not declared, then reads each declared one into `settings`. With
    /// `replacedWhole`, the keys are read from the first layer that has the table only.
    public func decode(
        _ section: ConfigurationDecoder.Section, into settings: inout Settings,
        decoder: inout ConfigurationDecoder, replacedWhole: Bool = false
    ) {
        decoder.allowOnly(names, in: section)
        let read =
            replacedWhole
            ? ConfigurationDecoder.Section(path: section.path, layers: Array(section.layers.prefix(1)))
            : section
        for key in keys { key.decode(&settings, read, &decoder) }
    }

    /// The table's lines: its keys, then the tables in it. `path` is the table's dotted name,
    /// empty for the top level.
    public func lines(_ settings: Settings, path: String) -> [String] {
        var own: [String] = []
        var tables: [String] = []
        for key in keys {
            switch key.text(settings, path.isEmpty ? key.name : path + "." + key.name) {
            case .value(let value): own.append(key.name + " = " + value)
            case .comment(let comment): own.append("# " + comment)
            case .omitted: break
            case .table(let lines): tables += lines
            }
        }
        return own + tables
    }

    /// The table under its `[path]` header, after a blank line.
    public func block(_ settings: Settings, path: String) -> [String] {
        ["", "[" + path + "]"] + lines(settings, path: path)
    }

    /// `{ fall = 20, rise = 50 }`, `{}` when no key is set.
    public func inline(_ settings: Settings) -> String {
        let entries = keys.compactMap { key -> String? in
            guard case .value(let value) = key.text(settings, key.name) else { return nil }
            return key.name + " = " + value
        }
        return entries.isEmpty ? "{}" : "{ " + entries.joined(separator: ", ") + " }"
    }
}
