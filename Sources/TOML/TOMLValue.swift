/// Where something stands in a TOML text: 1-based line, and 1-based column counted in
/// characters (Unicode scalars), so error messages point where an editor shows the cursor.
public struct TOMLPosition: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }
}

/// A parsed value and where it was written, so whoever interprets it can say where it went wrong.
public struct TOMLValue: Equatable, Sendable {
    public enum Content: Equatable, Sendable {
        case string(String)
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        case array([TOMLValue])
        case table(TOMLTable)
    }

    public var content: Content
    /// Where the value begins; for a table, its header or the key that first named it.
    public var position: TOMLPosition

    public init(_ content: Content, at position: TOMLPosition) {
        self.content = content
        self.position = position
    }

    /// The TOML name of the value's type: "integer".
    public var typeName: String { content.typeName }

    /// The type as a message names it: "must be a string, not an integer".
    public var describedType: String { content.describedType }

    public var string: String? {
        if case .string(let value) = content { value } else { nil }
    }

    public var integer: Int64? {
        if case .integer(let value) = content { value } else { nil }
    }

    /// A float, or an integer read as one: `interval = 1` means one second as surely as `1.0`.
    public var number: Double? {
        switch content {
        case .float(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    public var boolean: Bool? {
        if case .boolean(let value) = content { value } else { nil }
    }

    public var array: [TOMLValue]? {
        if case .array(let value) = content { value } else { nil }
    }

    public var table: TOMLTable? {
        if case .table(let value) = content { value } else { nil }
    }
}

extension TOMLValue.Content {
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        case .array: "array"
        case .table: "table"
        }
    }

    public var describedType: String {
        switch self {
        case .integer, .array: "an \(typeName)"
        default: "a \(typeName)"
        }
    }
}

/// A table's keys in the order they were written, each with its value.
public struct TOMLTable: Equatable, Sendable {
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    public init() {}

    public subscript(key: String) -> TOMLValue? { values[key] }

    public var isEmpty: Bool { keys.isEmpty }

    public var entries: [(key: String, value: TOMLValue)] {
        keys.compactMap { key in values[key].map { (key, $0) } }
    }

    /// Adds a key, or replaces its value in place if already present.
    public mutating func set(_ key: String, _ value: TOMLValue) {
        if values.updateValue(value, forKey: key) == nil {
            keys.append(key)
        }
    }
}
