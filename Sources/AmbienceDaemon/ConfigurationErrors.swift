/// One thing wrong with a configuration, placed where the user can fix it:
/// `/etc/ambience/ambience.toml:12: timing.latency: L (10 s) must be at least …`.
public struct ConfigFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// Nil when the fault is the file as a whole, or a key it lacks.
    public var line: Int?
    /// Only for syntax errors, where the column matters.
    public var column: Int?
    /// The dotted key at fault, if the fault has one.
    public var key: String?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    public var description: String {
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return place + ": " + (key.map { $0 + ": " } ?? "") + message
    }
}

/// Every fault found in a configuration and its board profile, not just the first, so one run
/// of `ambience check` shows all there is to fix.
public struct ConfigFileErrors: Error, Equatable, Sendable, CustomStringConvertible {
    public var errors: [ConfigFileError]

    public init(_ errors: [ConfigFileError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
