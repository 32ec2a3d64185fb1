import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// An open file descriptor with EINTR-safe, typed-error calls. Closing is explicit.
public struct FileDescriptor: Equatable, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Errno)
        -> FileDescriptor
    {
        FileDescriptor(rawValue: try retryOnInterrupt { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    public func close() {
        // Linux releases the descriptor even when close reports EINTR, so it is never retried.
        _ = Glibc.close(rawValue)
    }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// One write(2): returns how many bytes went out (possibly fewer than given).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryOnInterrupt { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes everything, looping over short writes; for blocking descriptors.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try bytes.withUnsafeBytes { buffer in
                Result { () throws(Errno) in try write(UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            }.get()
        }
    }

    public func writeAll(_ text: String) throws(Errno) {
        try writeAll(Array(text.utf8))
    }
}

extension FileDescriptor {
    /// fstat(2): what this descriptor refers to, however its path has changed since.
    public func status() throws(Errno) -> FileStatus {
        var info = stat()
        _ = try retryOnInterrupt { fstat(rawValue, &info) }
        return FileStatus(info)
    }

    /// fchmod(2).
    public func setMode(_ mode: mode_t) throws(Errno) {
        _ = try retryOnInterrupt { fchmod(rawValue, mode) }
    }

    /// fchown(2) of the group alone.
    public func setGroup(_ group: gid_t) throws(Errno) {
        _ = try retryOnInterrupt { fchown(rawValue, uid_t.max, group) }
    }

    /// pread(2): up to `buffer.count` bytes from `offset`, the file position untouched.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        try retryOnInterrupt { pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// ftruncate(2).
    public func truncate(to size: Int64) throws(Errno) {
        _ = try retryOnInterrupt { ftruncate(rawValue, off_t(size)) }
    }

    /// fsync(2): the data (or a directory's entries) on the disk before it returns.
    public func sync() throws(Errno) {
        _ = try retryOnInterrupt { fsync(rawValue) }
    }

    /// Waits up to `milliseconds` (-1: without end) for `events` on any of `descriptors`; the
    /// events that came, one per descriptor, all empty when the time ran out. A signal ends
    /// the wait early with all empty, so callers re-check their deadline.
    public static func poll(_ descriptors: [FileDescriptor], events: Int16, milliseconds: Int32) throws(Errno)
        -> [Int16]
    {
        try poll(descriptors.map { ($0, events) }, milliseconds: milliseconds)
    }

    /// The same, with the events to wait for given per descriptor (POLLOUT for a socket with
    /// something to send, POLLIN for the rest).
    public static func poll(_ requests: [(descriptor: FileDescriptor, events: Int16)], milliseconds: Int32)
        throws(Errno) -> [Int16]
    {
        var polled = requests.map { pollfd(fd: $0.descriptor.rawValue, events: $0.events, revents: 0) }
        let ready = Glibc.poll(&polled, nfds_t(polled.count), milliseconds)
        if ready < 0 {
            let error = Errno.current
            if error == .interrupted { return Array(repeating: 0, count: requests.count) }
            throw error
        }
        return polled.map { $0.revents }
    }
}

extension FileDescriptor {
    /// pipe2(2) with close-on-exec: the reading end and the writing end.
    public static func makePipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        _ = try retryOnInterrupt { clinux_pipe2(&ends, O_CLOEXEC) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// Sets O_NONBLOCK on the open file this descriptor refers to (shared with its duplicates).
    public func setNonBlocking() throws(Errno) {
        let flags = try retryOnInterrupt { fcntl(rawValue, F_GETFL) }
        _ = try retryOnInterrupt { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }
}
