/// Turns a fault that repeats every tick into one message when it begins (or changes) and one
/// when it ends.
public struct FaultReport {
    private let log: (String) -> Void
    private let logRecovery: (String) -> Void
    private var current: String?

    /// `recovery` logs the end of a fault, where it needs another priority than its beginning.
    public init(log: @escaping (String) -> Void, recovery: ((String) -> Void)? = nil) {
        self.log = log
        logRecovery = recovery ?? log
    }

    public var isFailing: Bool { current != nil }

    public mutating func failed(_ message: String) {
        guard message != current else { return }
        current = message
        log(message)
    }

    public mutating func succeeded(_ recovery: @autoclosure () -> String) {
        guard current != nil else { return }
        current = nil
        logRecovery(recovery())
    }
}
