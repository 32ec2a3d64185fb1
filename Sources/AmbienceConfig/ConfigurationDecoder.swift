import AmbienceCore
import TOML

/// One file's contribution: the configuration itself, or the board profile beneath it.
public struct ConfigurationLayer {
    public var file: String
    public var table: TOMLTable

    public init(file: String, table: TOMLTable) {
        self.file = file
        self.table = table
    }
}

/// Reads the schema out of layered TOML tables (the configuration first, then its board), each
/// key from the first layer that sets it, collecting every fault with its file and line.
public struct ConfigurationDecoder {
    /// A table of the schema as each layer has it.
    public struct Section {
        public var path: [String]
        public var layers: [(file: String, table: TOMLTable, position: TOMLPosition?)]

        public init(path: [String], layers: [(file: String, table: TOMLTable, position: TOMLPosition?)]) {
            self.path = path
            self.layers = layers
        }

        public func key(_ name: String) -> String { (path + [name]).joined(separator: ".") }
        public var name: String { path.isEmpty ? "the top level" : path.joined(separator: ".") }
    }

    public private(set) var errors: [ConfigFileError] = []

    /// The errors as a reader goes through the files: the configuration first, line by line.
    public var errorsInReadingOrder: [ConfigFileError] {
        errors.enumerated().sorted { first, second in
            let a = first.element
            let b = second.element
            return (a.file == mainFile ? 0 : 1, a.file, a.line ?? 0, first.offset)
                < (b.file == mainFile ? 0 : 1, b.file, b.line ?? 0, second.offset)
        }.map { $0.element }
    }

    /// Where each key that was read was set, so a fault found later (by the engine's own
    /// validation) can still be placed.
    public private(set) var origins: [String: ConfigurationOrigin] = [:]
    public let mainFile: String

    public init(mainFile: String) {
        self.mainFile = mainFile
    }

    public static func root(of layers: [ConfigurationLayer]) -> Section {
        Section(path: [], layers: layers.map { ($0.file, $0.table, nil) })
    }

    public mutating func fail(_ key: String?, _ message: String, file: String, line: Int?) {
        errors.append(ConfigFileError(file: file, line: line, key: key, message: message))
    }

    public mutating func record(_ error: ConfigFileError) {
        errors.append(error)
    }

    /// A sub-table in every layer that has it, after checking that it is a table.
    public mutating func section(_ name: String, of parent: Section) -> Section {
        var section = Section(path: parent.path + [name], layers: [])
        for layer in parent.layers {
            guard let value = layer.table[name] else { continue }
            guard let table = value.table else {
                fail(
                    parent.key(name), "must be a table, not \(value.describedType)", file: layer.file,
                    line: value.position.line)
                continue
            }
            section.layers.append((layer.file, table, value.position))
        }
        if let first = section.layers.first, let position = first.position {
            origins[parent.key(name)] = ConfigurationOrigin(file: first.file, line: position.line)
        }
        return section
    }

    /// Refuses every key the schema does not know, in every layer.
    public mutating func allowOnly(_ keys: [String], in section: Section) {
        for layer in section.layers {
            for (key, value) in layer.table.entries where !keys.contains(key) {
                fail(
                    section.key(key), "unknown key; \(section.name) takes \(keys.joined(separator: ", "))",
                    file: layer.file, line: value.position.line)
            }
        }
    }

    /// Whether any layer gives the key (a value refused or not).
    public func isGiven(_ name: String, in section: Section) -> Bool {
        section.layers.contains { $0.table[name] != nil }
    }

    /// The value from the first layer that sets it.
    public mutating func value(_ name: String, in section: Section) -> (value: TOMLValue, file: String)? {
        for layer in section.layers {
            if let value = layer.table[name] {
                origins[section.key(name)] = ConfigurationOrigin(file: layer.file, line: value.position.line)
                return (value, layer.file)
            }
        }
        return nil
    }

    /// A required key that no layer sets: reported against the configuration file, at the
    /// line of the table that should hold it when there is one.
    public mutating func missing(_ name: String, in section: Section, _ message: String) {
        // A table of the wrong type already explains why its keys are missing.
        let key = section.key(name)
        if errors.contains(where: { fault in fault.key.map { key.hasPrefix($0 + ".") } ?? false }) { return }
        let line = section.layers.first { $0.file == mainFile }?.position?.line
        fail(key, message, file: mainFile, line: line)
    }

    private mutating func typed<T>(
        _ name: String, in section: Section, expected: String, _ read: (TOMLValue) -> T?
    ) -> (value: T, source: TOMLValue, file: String)? {
        guard let (value, file) = value(name, in: section) else { return nil }
        guard let typed = read(value) else {
            fail(
                section.key(name), "must be \(expected), not \(value.describedType)", file: file,
                line: value.position.line)
            return nil
        }
        return (typed, value, file)
    }

    public mutating func boolean(_ name: String, in section: Section) -> Bool? {
        typed(name, in: section, expected: "true or false") { $0.boolean }?.value
    }

    /// A number of seconds or lux: an integer or a float.
    public mutating func number(_ name: String, in section: Section) -> Double? {
        typed(name, in: section, expected: "a number") { $0.number }?.value
    }

    /// What a key that is one word or else an integer holds (OPT3001's `range`: "auto" or 0 to 11).
    public enum WordOrInteger: Equatable, Sendable {
        case word
        /// An integer, of any value: `integer(_:in:range:meaning:)` reads and checks it.
        case integer
    }

    /// A key that is `word` or an integer; any other string or type is refused as not `meaning`,
    /// what the key must be. Nil when no layer gives the key, or it is refused.
    public mutating func wordOrInteger(_ name: String, in section: Section, word: String, meaning: String)
        -> WordOrInteger?
    {
        guard let (value, file) = value(name, in: section) else { return nil }
        if let text = value.string {
            guard text == word else {
                fail(
                    section.key(name), "must be \(meaning), not \"\(text)\"", file: file,
                    line: value.position.line)
                return nil
            }
            return .word
        }
        guard value.integer != nil else {
            fail(
                section.key(name), "must be \(meaning), not \(value.describedType)", file: file,
                line: value.position.line)
            return nil
        }
        return .integer
    }

    public mutating func integer(
        _ name: String, in section: Section, range: ClosedRange<Int>,
        describe: (Int64) -> String = { "\($0)" },
        meaning: String
    ) -> Int? {
        guard let (integer, source, file) = typed(name, in: section, expected: "an integer", { $0.integer })
        else { return nil }
        guard let value = Int(exactly: integer), range.contains(value) else {
            fail(
                section.key(name),
                "must be \(meaning) from \(describe(Int64(range.lowerBound))) to"
                    + " \(describe(Int64(range.upperBound))), not \(describe(integer))",
                file: file, line: source.position.line)
            return nil
        }
        return value
    }

    /// A string key read as a `Value`: `parse` gives nil for a text it refuses, and the fault is
    /// then `refusal(text)` at the key's line. The one way a key's text becomes a value of its own.
    public mutating func parsedString<Value>(
        _ name: String, in section: Section, _ parse: (String) -> Value?, refusal: (String) -> String
    ) -> Value? {
        guard let (text, line, file) = string(name, in: section) else { return nil }
        guard let value = parse(text) else {
            fail(section.key(name), refusal(text), file: file, line: line)
            return nil
        }
        return value
    }

    public mutating func string(_ name: String, in section: Section) -> (
        value: String, line: Int, file: String
    )? {
        guard let (text, source, file) = typed(name, in: section, expected: "a string", { $0.string })
        else { return nil }
        guard !text.isEmpty, !text.utf8.contains(0) else {
            fail(
                section.key(name), text.isEmpty ? "must not be empty" : "must not contain a NUL character",
                file: file, line: source.position.line)
            return nil
        }
        return (text, source.position.line, file)
    }

    /// One of a fixed set of words.
    public mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ name: String, in section: Section, meaning: String
    ) -> Choice? where Choice.RawValue == String {
        choice(
            name, in: section, meaning: meaning, among: Array(Choice.allCases), spelled: { $0.rawValue },
            parsing: Choice.init(rawValue:))
    }

    /// One of a fixed set of words, read by the type's own parser; only the spelling the file
    /// is documented with is taken, not the parser's aliases, so that every file is written alike.
    public mutating func choice<Choice>(
        _ name: String, in section: Section, meaning: String, among choices: [Choice],
        spelled spelling: (Choice) -> String, parsing parse: (String) -> Choice?
    ) -> Choice? {
        guard let (text, line, file) = string(name, in: section) else { return nil }
        guard let choice = parse(text), spelling(choice) == text else {
            fail(
                section.key(name),
                "\"\(text)\" is not \(meaning): use \(Self.alternatives(choices.map(spelling)))",
                file: file, line: line)
            return nil
        }
        return choice
    }

    /// File permission bits, written in octal (0o660) in the file and in messages.
    public mutating func permissionBits(_ name: String, in section: Section) -> UInt32? {
        integer(
            name, in: section, range: 0...0o777, describe: ConfigurationFormat.octal,
            meaning: "permission bits"
        )
        .map(UInt32.init)
    }

    public mutating func absolutePath(_ name: String, in section: Section) -> String? {
        guard let (path, line, file) = string(name, in: section) else { return nil }
        return checkAbsolute(path, key: section.key(name), file: file, line: line)
    }

    /// Relative paths would depend on the directory the daemon happens to start in.
    public mutating func checkAbsolute(_ path: String, key: String, file: String, line: Int) -> String? {
        guard path.hasPrefix("/") else {
            fail(key, "\"\(path)\" must be an absolute path (starting with /)", file: file, line: line)
            return nil
        }
        return path
    }

    /// Places a refusal from the engine's or a driver's own validation at the key it names, or at
    /// the nearest enclosing table that was written, or at the file that leaves it to the defaults.
    public mutating func adopt(_ error: ConfigurationError) {
        record(ConfigurationOrigin.place(error, origins: origins, mainFile: mainFile))
    }

    /// `"a", "b" or "c"`.
    public static func alternatives(_ spellings: [String]) -> String {
        let words = spellings.map { "\"\($0)\"" }
        guard words.count > 1 else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }
}
