import AmbienceCore

/// The text/event-stream framing (HTML Living Standard, "Server-sent events").
public enum EventStreamFormat {
    public static func retry(milliseconds: Int) -> [UInt8] {
        Array("retry: \(milliseconds)\n\n".utf8)
    }

    /// One event; `data` is one line (the feed never passes on a line with CR or LF in it).
    public static func event(_ name: String, data: String) -> [UInt8] {
        Array("event: \(name)\ndata: \(data)\n\n".utf8)
    }

    /// A comment: keeps proxies and the browser from taking a quiet stream for a dead one.
    public static let keepAlive = Array(": keep-alive\n\n".utf8)
}

/// The daemon's event lines as `serve` passes them on: whole lines out of the pipe's reads
/// (`LineFramer`), each read as an event line (`EventLine.decode`) and passed on as it came, an
/// event for the streams, and the latest state for `/state` and for new streams. Events this
/// version does not know are passed on too, under their own name.
public struct EventFeed: Sendable {
    public struct Message: Equatable, Sendable {
        public var name: String
        public var data: String

        public init(name: String, data: String) {
            self.name = name
            self.data = data
        }
    }

    /// The newest `change` or `current` line, with its event renamed `current`: what a new
    /// client is told first. Nil before the first one; kept while the daemon is away.
    public private(set) var latest: String?
    private var framer = LineFramer()

    public init() {}

    /// The events among the whole lines of one read.
    public mutating func consume(_ bytes: some Sequence<UInt8>) -> [Message] {
        framer.push(bytes).compactMap { accept($0) }
    }

    /// The writer went away: a partial line will never be finished.
    public mutating func disconnected() {
        framer.close()
    }

    /// Over-long lines skipped since the last call (see `LineFramer`), for the log.
    public mutating func takeSkipped() -> Int { framer.takeSkipped() }

    private mutating func accept(_ bytes: [UInt8]) -> Message? {
        // The decoder refuses CR, LF and every other control character: none ends the SSE line early.
        guard let event = try? EventLine.decode(bytes) else { return nil }
        let data: String
        switch event.format {
        case .plain:
            data = #"{"event":"change","state":"\#(event.state?.rawValue ?? "")"}"#
        case .json:
            data = event.text
        }
        if event.kind == .change || event.kind == .current { latest = Self.asCurrent(data) }
        return Message(name: event.event, data: data)
    }

    private static func asCurrent(_ line: String) -> String {
        let change = #"{"event":"change""#
        guard line.hasPrefix(change) else { return line }
        return #"{"event":"current""# + line.dropFirst(change.count)
    }
}

/// What one event stream has yet to send, bounded: a client that stops reading fills it, and is
/// then dropped rather than held in memory or allowed to hold anyone else up.
public struct StreamBuffer: Sendable {
    public let capacity: Int
    private var bytes: [UInt8] = []
    private var start = 0

    public init(capacity: Int) { self.capacity = capacity }

    public var count: Int { bytes.count - start }
    public var isEmpty: Bool { count == 0 }

    /// False, keeping nothing of it, when it does not fit.
    public mutating func append(_ more: [UInt8]) -> Bool {
        guard count + more.count <= capacity else { return false }
        if start > 0 {
            bytes.removeFirst(start)
            start = 0
        }
        bytes += more
        return true
    }

    /// Copies up to `maximum` bytes out and forgets them.
    public mutating func take(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let taken = min(buffer.count, count)
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + taken]))
        }
        start += taken
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        }
        return taken
    }
}
