import AmbienceClient
import AmbienceCore
import AmbienceServe
import AmbienceSystem

/// The server's source of the loop: MHD's descriptor and the pipe; the pipe's events go to every
/// stream, a comment every 15 s keeps the streams alive.
final class Service: EventSource {
    static let keepAliveInterval = 15.0

    let server: HTTPServer
    let pipe: PipeFollower
    let clock: any Clock
    let loop: EventLoop
    private var nextKeepAlive: Double
    /// What stopped the service, when not a signal.
    private(set) var failure: PipeFollower.Failure?

    init(server: HTTPServer, pipe path: String, clock: any Clock, loop: EventLoop) {
        self.server = server
        pipe = PipeFollower(path: path, clock: clock)
        self.clock = clock
        self.loop = loop
        nextKeepAlive = clock.now + Self.keepAliveInterval
    }

    var interest: Interest {
        var deadline = min(nextKeepAlive, pipe.wakeDeadline)
        if let timeout = server.timeout { deadline = min(deadline, clock.now + timeout) }
        return Interest(reading: [server.epoll] + pipe.descriptors, deadline: deadline)
    }

    func serve(_ wake: Wake) {
        if case .signal = wake {
            loop.stop()
            return
        }
        do {
            try pipe.drain(take)
        } catch {
            failure = error
            loop.stop()
            return
        }
        if clock.now >= nextKeepAlive {
            server.broadcast(EventStreamFormat.keepAlive)
            nextKeepAlive = clock.now + Self.keepAliveInterval
        }
        server.run()
    }

    private func take(_ event: PipeFollower.Event) {
        switch event {
        case .data(let bytes):
            for message in server.feed.consume(bytes) {
                server.broadcast(EventStreamFormat.event(message.name, data: message.data))
            }
            let skipped = server.feed.takeSkipped()
            if skipped > 0 {
                Logger.standard.log(
                    .warning, "ambience serve: \(pipe.path): " + LineFramer.skippedMessage(skipped))
            }
        case .closed:
            server.feed.disconnected()
        case .missing:
            Logger.standard.log(
                .notice, "ambience serve: waiting for \(pipe.path) to appear (is the daemon running?)")
        case .opened, .timedOut:
            break
        }
    }
}
