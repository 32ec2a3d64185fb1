/// Splits what a descriptor delivers into lines, without Foundation and without copying a
/// line more than once. A final line without "\n" is still delivered.
public struct LineReader {
    public let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private var start = 0
    private var reachedEnd = false
    private let chunkSize: Int

    public init(descriptor: FileDescriptor, chunkSize: Int = 1 << 16) {
        self.descriptor = descriptor
        self.chunkSize = chunkSize
    }

    /// The next line without its "\n" (and without a trailing "\r"), or nil at end of input.
    public mutating func nextLine() throws(Errno) -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                start = newline + 1
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                return line
            }
            if reachedEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return line
            }
            try fill()
        }
    }

    /// Hands every line to `body` until the end of input; stops at the first failure, reading's
    /// or `body`'s, each typed, so that a caller names either without a cast.
    public mutating func forEachLine<Failure: Error>(
        _ body: (ArraySlice<UInt8>) throws(Failure) -> Void
    ) throws(LineFailure<Failure>) {
        while true {
            let line: ArraySlice<UInt8>?
            do { line = try nextLine() } catch { throw .reading(error) }
            guard let line else { return }
            do { try body(line) } catch { throw .line(error) }
        }
    }

    /// Whether `nextLine()` can answer without reading: a caller woken by poll(2) takes every
    /// line one read brought, since poll will not report those bytes again.
    public var hasBufferedLine: Bool {
        buffer[start...].contains(UInt8(ascii: "\n")) || (reachedEnd && start < buffer.count)
    }

    private mutating func fill() throws(Errno) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[oldCount...]))
            }
        }
        let count = (try? result.get()) ?? 0
        buffer.removeLast(chunkSize - count)
        if case .failure(let error) = result { throw error }
        if count == 0 { reachedEnd = true }
    }
}

/// Why `LineReader.forEachLine` stopped: the input could not be read, or a line was refused.
public enum LineFailure<Failure: Error>: Error {
    case reading(Errno)
    case line(Failure)
}

extension LineFailure: CustomStringConvertible where Failure: CustomStringConvertible {
    public var description: String {
        switch self {
        case .reading(let error): error.description
        case .line(let error): error.description
        }
    }
}

/// Collects output and hands it to a descriptor in large writes, for fast streaming commands.
public struct BufferedWriter {
    public let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private let capacity: Int

    public init(descriptor: FileDescriptor, capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    public mutating func write(_ text: String) throws(Errno) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try flush() }
    }

    public mutating func flush() throws(Errno) {
        defer { buffer.removeAll(keepingCapacity: true) }
        try descriptor.writeAll(buffer)
    }
}
