import AmbienceCore

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

    public var description: String { errors.map { $0.description }.joined(separator: "\n") }
}

/// Where a key of the configuration was set: its file and line.
public struct ConfigurationOrigin: Equatable, Sendable {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// Places a refusal that names a key (from the engine's, a driver's or a device's own checks)
    /// at the key, or at the nearest enclosing table that was written, or at the main file that
    /// leaves it to the defaults.
    public static func place(
        _ error: ConfigurationError, origins: [String: ConfigurationOrigin], mainFile: String
    ) -> ConfigFileError {
        var path = error.key.split(separator: ".").map(String.init)
        while !path.isEmpty {
            if let origin = origins[path.joined(separator: ".")] {
                return ConfigFileError(
                    file: origin.file, line: origin.line, key: error.key, message: error.message)
            }
            path.removeLast()
        }
        return ConfigFileError(file: mainFile, key: error.key, message: error.message)
    }
}

/// Where the keys of a loaded configuration were set. Where a value came from is not part of
/// what it is: two configurations with the same settings are equal wherever they were written.
public struct ConfigurationOrigins: Equatable, Sendable {
    public var byKey: [String: ConfigurationOrigin] = [:]
    public var file: String?

    public init(byKey: [String: ConfigurationOrigin] = [:], file: String? = nil) {
        self.byKey = byKey
        self.file = file
    }

    public static func == (_: ConfigurationOrigins, _: ConfigurationOrigins) -> Bool { true }
}
