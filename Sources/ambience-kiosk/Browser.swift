import AmbienceKiosk
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The browser the kiosk started, and its DevTools pipe: the browser reads commands from its
/// fd 3 and writes replies and events to its fd 4, each message ending with a NUL. The
/// browser's ends are blocking, as Chromium expects; the kiosk's own ends never block its loop.
final class Browser {
    let process: pid_t
    private let commands: FileDescriptor
    /// nil once the browser closed its end.
    private(set) var replies: FileDescriptor?
    private var outbox: [UInt8] = []
    private var frames = NULFrames()
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(arguments: [String], environment: [String]) throws(Errno) {
        let commandPipe = try FileDescriptor.makePipe()
        let replyPipe: (read: FileDescriptor, write: FileDescriptor)
        do {
            replyPipe = try FileDescriptor.makePipe()
        } catch {
            commandPipe.read.close()
            commandPipe.write.close()
            throw error
        }
        defer {
            commandPipe.read.close()
            replyPipe.write.close()
        }
        do {
            try commandPipe.write.setNonBlocking()
            try replyPipe.read.setNonBlocking()
            // Its own process group: what the browser starts (renderers, zygotes, GPU process)
            // is ended with it, even when the browser itself was killed and could not.
            process = try Subprocess.spawn(
                arguments[0], arguments: arguments, environment: environment,
                descriptors: [(commandPipe.read, 3), (replyPipe.write, 4)], newProcessGroup: true)
        } catch {
            commandPipe.write.close()
            replyPipe.read.close()
            throw error
        }
        commands = commandPipe.write
        replies = replyPipe.read
    }

    deinit {
        commands.close()
        replies?.close()
    }

    var hasUnsent: Bool { !outbox.isEmpty }

    /// Queues `messages` and writes what the pipe takes now; the rest goes with `flush()`.
    func send(_ messages: [String]) {
        for message in messages {
            outbox += Array(message.utf8)
            outbox.append(0)
        }
        flush()
    }

    func flush() {
        while !outbox.isEmpty {
            let result = outbox.withUnsafeBytes { bytes in
                Result { () throws(Errno) in try commands.write(bytes) }
            }
            switch result {
            case .success(let count): outbox.removeFirst(count)
            case .failure(.wouldBlock): return
            case .failure:
                // The browser closed its end (it is ending): nothing will read these.
                outbox.removeAll()
                return
            }
        }
    }

    /// The whole messages that arrived, without waiting; the count of oversized ones dropped.
    func receive() -> (messages: [[UInt8]], dropped: Int) {
        var messages: [[UInt8]] = []
        var dropped = 0
        while let replies {
            let result = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try replies.read(into: bytes) }
            }
            switch result {
            case .success(0), .failure(.brokenPipe), .failure(.ioError):
                replies.close()
                self.replies = nil
            case .success(let count):
                let framed = frames.consume(buffer[..<count])
                messages += framed.messages
                dropped += framed.dropped
            case .failure:
                return (messages, dropped)
            }
        }
        return (messages, dropped)
    }

    /// Asks the browser to end (SIGTERM): Chromium closes its windows and children itself.
    func terminate() {
        Subprocess.signal(process, SIGTERM)
    }

    /// SIGKILL to the browser and everything left in its process group.
    func killAll() {
        Subprocess.signal(-process, SIGKILL)
    }
}
