import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// Why an output could not be set up or used. `.configuration` names the key at fault (exit
/// 78); the others are runtime failures (exit 1).
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    case configuration(ConfigurationError)
    /// The path exists and is something else; it is left alone.
    case notAFIFO(path: String, found: String)
    /// A GPIO line is held by another consumer ("" when it gave no name).
    case lineBusy(key: String, chip: String, offset: UInt32, consumer: String)
    case permissionDenied(path: String, hint: String)
    case system(operation: String, path: String, Errno)
    /// A file of ours that holds something we did not write.
    case invalidContents(path: String, message: String)
    /// The I2C bus of a DDC/CI monitor could not be opened.
    case bus(I2CError)

    public var description: String {
        switch self {
        case .configuration(let error):
            return error.description
        case .notAFIFO(let path, let found):
            return
                "\(path) exists and is \(found), not a named pipe: remove or move it, or configure another path"
        case .lineBusy(let key, let chip, let offset, let consumer):
            let holder = consumer.isEmpty ? "another consumer (unnamed)" : "'\(consumer)'"
            return "\(key): line \(offset) of \(chip) is busy, held by \(holder)"
        case .permissionDenied(let path, let hint):
            return "\(path): permission denied; \(hint)"
        case .system(let operation, let path, let error):
            return "cannot \(operation) \(path): \(error)"
        case .invalidContents(let path, let message):
            return "\(path): \(message)"
        case .bus(let error):
            return error.description
        }
    }

    /// The same error with its key under the name `rename` gives it: an output names its own
    /// fields (`group`, `lines.invert`), its user the keys they were set by.
    public func renamingKey(_ rename: (String) -> String?) -> OutputError {
        switch self {
        case .configuration(let error): .configuration(error.renamingKey(rename))
        case .lineBusy(let key, let chip, let offset, let consumer):
            .lineBusy(key: rename(key) ?? key, chip: chip, offset: offset, consumer: consumer)
        default: self
        }
    }

    public var configurationError: ConfigurationError? {
        if case .configuration(let error) = self { return error }
        return nil
    }
}
