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

/// The command line is wrong: the message, then the command's usage, and exit 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A failure the command explains in its message, ending it with `exitCode` (1 unless said).
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var exitCode: ExitCode
    public init(message: String, exitCode: ExitCode = .failure) {
        self.message = message
        self.exitCode = exitCode
    }
    public var description: String { message }
}
