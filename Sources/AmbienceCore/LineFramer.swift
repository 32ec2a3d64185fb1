/// Whole lines out of a byte stream read piece by piece (the daemon's named pipe): every reader
/// of event lines frames them here, with one limit and one way of treating what breaks the rules.
///
/// - A line is the bytes before a "\n", which is not part of it. A line split across reads is
///   put back together.
/// - A line longer than `limit` bytes (its "\n" included) is skipped whole, up to and including
///   its "\n", and counted in `skipped` for the reader to log: it cannot be an event line, which
///   the daemon writes in one write(2) far below PIPE_BUF, and buffering it without end would
///   let any writer grow the reader's memory.
/// - At `close()` (the writer left), an unfinished line is dropped, not passed on: the daemon
///   ends every line it writes, so an unfinished one is a torn write, never an event.
///
/// Pure: bytes in, lines out; no I/O, no time.
public struct LineFramer: Sendable {
    /// PIPE_BUF on Linux: the most one write(2) to a pipe keeps whole, and so the longest line a
    /// writer of the pipe protocol can send without being torn by another writer. An event line
    /// is about 300 bytes at most.
    public static let limit = 4096

    /// The longest line passed on, its "\n" included.
    public let limit: Int
    /// Over-long lines skipped since the framer was made (see `takeSkipped`).
    public private(set) var skipped = 0
    private var reported = 0
    private var partial: [UInt8] = []
    private var skipping = false

    public init(limit: Int = LineFramer.limit) {
        precondition(limit > 0)
        self.limit = limit
    }

    /// The whole lines completed by `bytes`, in order, each without its "\n".
    public mutating func push(_ bytes: some Sequence<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                if skipping { continue }
                // One byte left for the "\n".
                if partial.count < limit - 1 {
                    partial.append(byte)
                } else {
                    skipping = true
                    partial.removeAll(keepingCapacity: true)
                }
                continue
            }
            if skipping {
                skipping = false
                skipped += 1
            } else {
                lines.append(partial)
            }
            partial.removeAll(keepingCapacity: true)
        }
        return lines
    }

    /// The writer went away: a line it left unfinished will never be finished, and is dropped.
    /// True when there was one (an over-long one being skipped counts as skipped).
    @discardableResult
    public mutating func close() -> Bool {
        defer {
            partial.removeAll()
            skipping = false
        }
        if skipping {
            skipped += 1
            return true
        }
        return !partial.isEmpty
    }

    /// What a reader logs when `takeSkipped` is not 0, in the same words everywhere.
    public static func skippedMessage(_ count: Int) -> String {
        "skipped \(count) line\(count == 1 ? "" : "s") longer than \(limit) bytes"
    }

    /// How many over-long lines were skipped since the last call: what to log.
    public mutating func takeSkipped() -> Int {
        defer { reported = skipped }
        return skipped - reported
    }
}
