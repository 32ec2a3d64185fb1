/// A value that the configuration model refuses, naming the key at fault and why.
/// The key is its owner's own name for the value (the engine's `latencyBound`, a driver's
/// `mtreg`); whoever read the value maps it to the name the user wrote (`timing.latency` in the
/// file, `--latency` on replay's command line) and adds file and line.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var key: String
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "\(key): \(message)" }

    /// The same refusal under the name `rename` gives its key (the key as it is without one).
    public func renamingKey(_ rename: (String) -> String?) -> ConfigurationError {
        ConfigurationError(key: rename(key) ?? key, message: message)
    }
}
