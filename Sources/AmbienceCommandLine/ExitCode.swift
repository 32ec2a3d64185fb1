/// A program's exit status: the four of docs/guarantees.md §7 that every program uses, or one it
/// passes on (`ambience kiosk` ends with its browser's).
public struct ExitCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let ok = ExitCode(rawValue: 0)
    /// A runtime failure: a device, a file, a peer.
    public static let failure = ExitCode(rawValue: 1)
    /// The command line is wrong.
    public static let usage = ExitCode(rawValue: 2)
    /// The configuration is wrong (EX_CONFIG): systemd does not restart a unit that ends so.
    public static let configuration = ExitCode(rawValue: 78)
}

/// What ends a command early: its message, printed as `ambience NAME: message` at err, and its
/// exit code (1 unless said). A usage error (exit 2) is followed by the command's usage.
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var exitCode: ExitCode
    /// The command's usage follows the message.
    public var showsUsage = false

    public init(message: String, exitCode: ExitCode = .failure) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A failure that says itself: an `Errno`, a configuration's faults, a device's error.
    public init(_ error: some Error & CustomStringConvertible, exitCode: ExitCode = .failure) {
        self.init(message: error.description, exitCode: exitCode)
    }

    /// The command line is wrong: exit 2, the usage after the message.
    public static func usage(_ message: String) -> CommandFailure {
        var failure = CommandFailure(message: message, exitCode: .usage)
        failure.showsUsage = true
        return failure
    }

    public var description: String { message }
}
