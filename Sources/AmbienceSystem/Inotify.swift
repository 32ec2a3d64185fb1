#if canImport(Glibc)
    import Glibc
#endif

/// inotify(7): file-system events on a descriptor that joins a poll(2). Non-blocking; the
/// descriptor closes with the instance.
public final class Inotify {
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let opened = Events(rawValue: UInt32(IN_OPEN))
        public static let closedWithoutWriting = Events(rawValue: UInt32(IN_CLOSE_NOWRITE))
        public static let created = Events(rawValue: UInt32(IN_CREATE))
        public static let deleted = Events(rawValue: UInt32(IN_DELETE))
        public static let movedFrom = Events(rawValue: UInt32(IN_MOVED_FROM))
        public static let movedTo = Events(rawValue: UInt32(IN_MOVED_TO))
        public static let attributesChanged = Events(rawValue: UInt32(IN_ATTRIB))
        public static let watchedDeleted = Events(rawValue: UInt32(IN_DELETE_SELF))
        public static let watchedMoved = Events(rawValue: UInt32(IN_MOVE_SELF))
        /// Reported, never asked for: the watch is gone (its file removed, or the watch removed).
        public static let ignored = Events(rawValue: UInt32(IN_IGNORED))
        /// Reported, never asked for: events were lost to a full queue.
        public static let overflowed = Events(rawValue: UInt32(IN_Q_OVERFLOW))
    }

    public struct Event: Equatable, Sendable {
        public var watch: Int32
        public var events: Events
        /// The name inside a watched directory the event is about; empty for the watched file.
        public var name: String
    }

    public let descriptor: FileDescriptor

    public init() throws(Errno) {
        let raw = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard raw >= 0 else { throw Errno.current }
        descriptor = FileDescriptor(rawValue: raw)
    }

    deinit { descriptor.close() }

    /// Watches `path` (a file, or a directory and the names in it); returns the watch's number.
    @discardableResult
    public func watch(_ path: String, for events: Events) throws(Errno) -> Int32 {
        try retryOnInterrupt { inotify_add_watch(descriptor.rawValue, path, events.rawValue) }
    }

    public func removeWatch(_ watch: Int32) {
        _ = inotify_rm_watch(descriptor.rawValue, watch)
    }

    /// The events queued so far, oldest first; empty when there are none. Never waits.
    public func read() throws(Errno) -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try descriptor.read(into: bytes) }
            }
            let count: Int
            switch result {
            case .success(let read): count = read
            case .failure(.wouldBlock): return events
            case .failure(let error): throw error
            }
            guard count > 0 else { return events }
            let header = MemoryLayout<inotify_event>.size
            var offset = 0
            while offset + header <= count {
                let event = buffer.withUnsafeBytes {
                    $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + Int(event.len))]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                events.append(Event(watch: event.wd, events: Events(rawValue: event.mask), name: name))
                offset += header + Int(event.len)
            }
        }
    }
}
