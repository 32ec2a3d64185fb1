import AmbienceCore
import TOML

/// One key of a table, declared once: its name, how it is read and checked into `Settings`
/// (the settings keep their value, the default, when the file does not give the key), and how
/// `ambience check` writes it back. A `ConfigurationTable` of these is the table's accepted
/// keys, its reading and its text, so no key can be accepted but not read, or written back
/// under another name.
public struct ConfigurationKey<Settings>: Sendable {
    public typealias Section = ConfigurationDecoder.Section

    /// What `ambience check` writes for a key.
    public enum Text {
        /// `name = value`.
        case value(String)
        /// A comment line in the key's place, for a key left to someone else (`# control_group:
        /// the daemon's own`).
        case comment(String)
        /// Nothing: an optional key not set needs no word.
        case omitted
        /// A table of its own, `[path]` and its lines, written after the keys of its parent.
        case table([String])
    }

    public let name: String
    /// Given the table the key is in.
    let decode: @Sendable (inout Settings, Section, inout ConfigurationDecoder) -> Void
    /// Given the dotted path of the key, for a table's `[header]`.
    let text: @Sendable (Settings, _ path: String) -> Text

    /// A key read and written its own way: most keys are made by the functions below.
    public init(
        _ name: String,
        decode: @escaping @Sendable (inout Settings, Section, inout ConfigurationDecoder) -> Void,
        text: @escaping @Sendable (Settings, _ path: String) -> Text
    ) {
        self.name = name
        self.decode = decode
        self.text = text
    }

    /// The same key with `check` run after it is read: for a rule between it and the keys
    /// before it, reported in the order the keys are read.
    public func then(
        _ check: @escaping @Sendable (inout Settings, Section, inout ConfigurationDecoder) -> Void
    ) -> Self {
        let decode = decode
        return Self(
            name,
            decode: { settings, section, decoder in
                decode(&settings, section, &decoder)
                check(&settings, section, &decoder)
            }, text: text)
    }
}

extension ConfigurationKey {
    /// A key holding one value: `read` gives it (nil when the file does not give it, or gives it
    /// wrong, the fault then recorded), `write` spells it. `get` is nil for a value not set,
    /// written as the comment `# NAME: unset` when there is one, else left out.
    public static func value<Value>(
        _ name: String,
        read: @escaping @Sendable (String, Section, inout ConfigurationDecoder) -> Value?,
        write: @escaping @Sendable (Value) -> String,
        get: @escaping @Sendable (Settings) -> Value?,
        set: @escaping @Sendable (inout Settings, Value) -> Void,
        unset: String? = nil
    ) -> Self {
        Self(
            name,
            decode: { settings, section, decoder in
                if let value = read(name, section, &decoder) { set(&settings, value) }
            },
            text: { settings, _ in
                if let value = get(settings) { return .value(write(value)) }
                return unset.map { .comment("\(name): \($0)") } ?? .omitted
            })
    }

    public static func boolean(
        _ name: String, get: @escaping @Sendable (Settings) -> Bool?,
        set: @escaping @Sendable (inout Settings, Bool) -> Void
    ) -> Self {
        value(
            name, read: { name, section, decoder in decoder.boolean(name, in: section) },
            write: { String($0) }, get: get, set: set)
    }

    /// A number of seconds or lux; `refusing` gives the message for a number out of its range.
    public static func number(
        _ name: String, get: @escaping @Sendable (Settings) -> Double?,
        set: @escaping @Sendable (inout Settings, Double) -> Void,
        refusing refusal: @escaping @Sendable (Double) -> String? = { _ in nil }
    ) -> Self {
        value(
            name,
            read: { name, section, decoder in
                guard let number = decoder.number(name, in: section) else { return nil }
                if let message = refusal(number) {
                    decoder.adopt(ConfigurationError(key: section.key(name), message: message))
                    return nil
                }
                return number
            },
            write: { ConfigurationFormat.number($0) }, get: get, set: set)
    }

    /// An integer in `range`, written (in the file and in messages) as `describe` spells it.
    public static func integer(
        _ name: String, range: ClosedRange<Int>,
        describe: @escaping @Sendable (Int64) -> String = { "\($0)" },
        meaning: String, get: @escaping @Sendable (Settings) -> Int?,
        set: @escaping @Sendable (inout Settings, Int) -> Void, unset: String? = nil
    ) -> Self {
        value(
            name,
            read: { name, section, decoder in
                decoder.integer(name, in: section, range: range, describe: describe, meaning: meaning)
            },
            write: { describe(Int64($0)) }, get: get, set: set, unset: unset)
    }

    public static func string(
        _ name: String, get: @escaping @Sendable (Settings) -> String?,
        set: @escaping @Sendable (inout Settings, String) -> Void, unset: String? = nil
    ) -> Self {
        value(
            name, read: { name, section, decoder in decoder.string(name, in: section)?.value },
            write: { TOMLWriter.string($0) }, get: get, set: set, unset: unset)
    }

    public static func absolutePath(
        _ name: String, get: @escaping @Sendable (Settings) -> String?,
        set: @escaping @Sendable (inout Settings, String) -> Void, unset: String? = nil
    ) -> Self {
        value(
            name, read: { name, section, decoder in decoder.absolutePath(name, in: section) },
            write: { TOMLWriter.string($0) }, get: get, set: set, unset: unset)
    }

    /// File permission bits, written in octal.
    public static func permissionBits(
        _ name: String, get: @escaping @Sendable (Settings) -> UInt32?,
        set: @escaping @Sendable (inout Settings, UInt32) -> Void
    ) -> Self {
        value(
            name, read: { name, section, decoder in decoder.permissionBits(name, in: section) },
            write: { ConfigurationFormat.octal(Int64($0)) }, get: get, set: set)
    }

    /// One of a fixed set of words: `choices`, read by the type's own parser but only in the
    /// spelling the file is documented with.
    public static func choice<Choice: Sendable>(
        _ name: String, meaning: String, among choices: [Choice],
        spelled spelling: @escaping @Sendable (Choice) -> String,
        parsing parse: @escaping @Sendable (String) -> Choice?,
        get: @escaping @Sendable (Settings) -> Choice?,
        set: @escaping @Sendable (inout Settings, Choice) -> Void
    ) -> Self {
        value(
            name,
            read: { name, section, decoder in
                decoder.choice(
                    name, in: section, meaning: meaning, among: choices, spelled: spelling, parsing: parse)
            },
            write: { TOMLWriter.string(spelling($0)) }, get: get, set: set)
    }

    /// A table of its own (`[record]`), written after its parent's keys.
    public static func table<Value>(
        _ name: String, _ table: ConfigurationTable<Value>, get: @escaping @Sendable (Settings) -> Value,
        set: @escaping @Sendable (inout Settings, Value) -> Void
    ) -> Self {
        Self(
            name,
            decode: { settings, section, decoder in
                var value = get(settings)
                table.decode(decoder.section(name, of: section), into: &value, decoder: &decoder)
                set(&settings, value)
            },
            text: { settings, path in .table(table.block(get(settings), path: path)) })
    }

    /// A table written inline, as the key's value: `{ fall = 20, rise = 50 }`. With
    /// `replacedWhole`, the first layer that gives the table gives all of it: the board's
    /// entries do not add to the file's.
    public static func inlineTable<Value>(
        _ name: String, _ table: ConfigurationTable<Value>, replacedWhole: Bool = false,
        get: @escaping @Sendable (Settings) -> Value, set: @escaping @Sendable (inout Settings, Value) -> Void
    ) -> Self {
        Self(
            name,
            decode: { settings, section, decoder in
                var value = get(settings)
                table.decode(
                    decoder.section(name, of: section), into: &value, decoder: &decoder,
                    replacedWhole: replacedWhole)
                set(&settings, value)
            },
            text: { settings, _ in .value(table.inline(get(settings))) })
    }

    /// Another program's table in the same file: accepted here, read and written by that program
    /// (`ProgramTable`).
    public static func otherProgram(_ name: String) -> Self {
        Self(name, decode: { _, _, _ in }, text: { _, _ in .omitted })
    }
}
