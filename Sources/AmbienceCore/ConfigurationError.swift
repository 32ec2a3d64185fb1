/// A value that the configuration model refuses, naming the key at fault and why.
/// File and line are added by whoever read the value from a file.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var key: String
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "\(key): \(message)" }
}
