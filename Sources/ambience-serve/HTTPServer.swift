import AmbienceServe
import AmbienceSystem
import CMicroHTTPD
import CMicroHTTPDShim

#if canImport(Glibc)
    import Glibc
#endif

/// One client of `/events`: what it has yet to be sent, and whether MHD is waiting on it.
final class EventStreamClient {
    let connection: OpaquePointer
    let socket: Int32
    var buffer: StreamBuffer
    var suspended = false
    var dropped = false
    // The server holds every client and drops each before it ends itself; unowned(unsafe), since
    // Embedded Swift has no checked unowned references.
    unowned(unsafe) let server: HTTPServer

    init(connection: OpaquePointer, socket: Int32, capacity: Int, server: HTTPServer) {
        self.connection = connection
        self.socket = socket
        self.buffer = StreamBuffer(capacity: capacity)
        self.server = server
    }
}

/// What the edge keeps of one connection between libmicrohttpd's callbacks.
struct ConnectionRecord {
    let socket: Int32
    /// Its first bytes are still to be looked at (ConnectionStart) before the library reads them.
    var screening = true
    /// What it has sent so far, while that is only empty lines.
    var seen: [UInt8] = []
    /// The request target as the URI log callback saw it, for the request being read.
    var target: LoggedTarget?
}

/// The request target as libmicrohttpd handed it to the URI log callback, before decoding it.
struct LoggedTarget {
    /// Where it starts: in 0.9 the same place the access handler's `url` starts.
    let start: UnsafePointer<CChar>
    /// Its bytes up to the first NUL: the end of the C string.
    let length: Int
    let text: String
}

/// libmicrohttpd without threads of its own: its epoll descriptor waits in the caller's poll
/// beside the pipe and the signals, and `run()` does what is ready. Every answer comes from
/// HTTPRouter; this is only the edge between it and the library.
final class HTTPServer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Far more than a kiosk's pages need, and within the default limit of 1024 descriptors.
    static let connectionLimit: UInt32 = 512
    /// Per connection: the request's header section must fit in it (MHD answers 431 beyond).
    static let connectionMemory = 32 << 10
    /// An idle connection is closed after this; event streams stay busy with their comments.
    static let idleTimeout: UInt32 = 60
    /// What a stream may have queued: ~100 events. A client that lets it fill has stopped reading.
    static let streamCapacity = 16 << 10
    /// The kernel's send buffer of a stream, small so a stalled client is found before it has
    /// swallowed megabytes; Linux doubles it.
    static let streamSendBuffer: Int32 = 8 << 10
    /// Of a new connection's first bytes, at most this many are looked at before its request line.
    static let screenedBytes = 256

    var router: HTTPRouter
    var feed = EventFeed()
    private var daemon: OpaquePointer?
    private(set) var epoll: FileDescriptor
    private(set) var port: UInt16
    private var streams: [ObjectIdentifier: EventStreamClient] = [:]
    private var connections: [OpaquePointer: ConnectionRecord] = [:]
    private(set) var dropped = 0
    /// libmicrohttpd 0.9 splits the request line in place, so the access handler's `method`,
    /// `url` and `version` point into the line as it came; 1.0 refuses a NUL in the line itself.
    private let splitsRequestLineInPlace = String(cString: MHD_get_version()).hasPrefix("0.9.")

    var streamCount: Int { streams.count }

    init(listen: ListenAddress, router: HTTPRouter) throws(Failure) {
        self.router = router
        var storage = sockaddr_storage()
        let ipv6: Bool
        switch listen.family {
        case .ipv4(let bytes):
            ipv6 = false
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = listen.port.bigEndian
                withUnsafeMutableBytes(of: &address.pointee.sin_addr) { $0.copyBytes(from: bytes) }
            }
        case .ipv6(let bytes):
            ipv6 = true
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = listen.port.bigEndian
                withUnsafeMutableBytes(of: &address.pointee.sin6_addr) { $0.copyBytes(from: bytes) }
            }
        }
        epoll = FileDescriptor(rawValue: -1)
        port = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                ambience_http_start(
                    address, ipv6 ? 1 : 0, Self.connectionLimit, Self.connectionMemory, Self.idleTimeout,
                    handleRequest, logTarget, noteConnection, context)
            }
        }
        guard let started else {
            throw Failure(description: "cannot listen on \(listen): \(Errno.current)")
        }
        daemon = started
        let descriptor = ambience_http_epoll_fd(started)
        guard descriptor >= 0 else {
            MHD_stop_daemon(started)
            throw Failure(description: "libmicrohttpd gave no epoll descriptor")
        }
        epoll = FileDescriptor(rawValue: descriptor)
        port = UInt16(ambience_http_port(started))
    }

    /// Seconds until MHD wants `run()` even without input; nil when it does not.
    var timeout: Double? {
        guard let daemon else { return nil }
        var milliseconds: UInt64 = 0
        guard MHD_get_timeout(daemon, &milliseconds) == .YES else { return nil }
        return Double(milliseconds) / 1000
    }

    func run() {
        guard let daemon else { return }
        screenConnections()
        _ = MHD_run(daemon)
    }

    /// Looks at the first bytes of the connections that have not begun a request, before
    /// libmicrohttpd reads them (it reads only in MHD_run): one whose first line begins with a
    /// NUL byte, which the library would skip as an empty line and then hold as idle, is shut
    /// down, so the library closes it at once. What the library has read already must be bytes
    /// looked at here before (empty lines so far); a connection where it read more than that, in
    /// the moment between a look and its read, is left to it, as is one that goes on with empty
    /// lines beyond `screenedBytes`.
    private func screenConnections() {
        for (connection, record) in connections where record.screening {
            var received: UInt64 = 0
            var unread: UInt64 = 0
            guard ambience_tcp_received(record.socket, &received, &unread) == 0, unread <= received,
                received - unread <= UInt64(record.seen.count)
            else {
                connections[connection]?.screening = false
                continue
            }
            if unread == 0 { continue }
            var peeked = [UInt8](repeating: 0, count: Self.screenedBytes)
            let count = peeked.withUnsafeMutableBytes {
                recv(record.socket, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT))
            }
            guard count > 0 else { continue }
            let bytes = Array(record.seen.prefix(Int(received - unread)) + peeked.prefix(count))
            switch ConnectionStart(bytes) {
            case .undecided:
                connections[connection]?.seen = bytes
                if bytes.count >= Self.screenedBytes { connections[connection]?.screening = false }
            case .requestLine:
                connections[connection]?.screening = false
            case .malformed:
                connections[connection]?.screening = false
                // As for a dropped stream: the socket stays MHD's to close, which it does on
                // reading the end of the input.
                shutdown(record.socket, Int32(SHUT_RDWR))
            }
        }
    }

    /// Queues `bytes` on every stream and wakes those that were waiting; drops a stream that
    /// has no room left, so it holds no one else up.
    func broadcast(_ bytes: [UInt8]) {
        for client in streams.values where !client.dropped {
            if client.buffer.append(bytes) {
                resume(client)
            } else {
                drop(client)
            }
        }
    }

    func stop() {
        // MHD must not be stopped with suspended connections: end each stream first.
        for client in streams.values where !client.dropped {
            client.dropped = true
            resume(client)
        }
        run()
        if let daemon { MHD_stop_daemon(daemon) }
        daemon = nil
    }

    private func resume(_ client: EventStreamClient) {
        guard client.suspended else { return }
        client.suspended = false
        MHD_resume_connection(client.connection)
    }

    private func drop(_ client: EventStreamClient) {
        client.dropped = true
        dropped += 1
        Logger.standard.log(
            .warning,
            "ambience serve: dropped an event stream whose client stopped reading (\(dropped) so far)")
        // The socket stays MHD's to close; shut down, its next send fails and MHD cleans up.
        shutdown(client.socket, Int32(SHUT_RDWR))
        resume(client)
    }

    /// MHD calls this first when the header section is in, then again once the whole request is.
    /// Answering at the second call keeps the connection alive; a request with a body, which
    /// nothing here takes, is answered at the first and its connection closed.
    fileprivate func handle(
        _ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?, uploadSize: Int, firstCall: Bool
    ) -> MHD_Result {
        var headers: [(name: String, value: String)] = []
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, pointer)
        }
        let contentLength = headers.first { $0.name.lowercased() == "content-length" }.map {
            Int($0.value) ?? 1
        }
        let chunked = headers.contains { $0.name.lowercased() == "transfer-encoding" }
        let bodyLength = max(uploadSize, contentLength ?? 0, chunked ? 1 : 0)
        if firstCall && bodyLength == 0 { return .YES }
        let target = connections[connection]?.target
        connections[connection]?.target = nil
        var nulInRequestLine = false
        if splitsRequestLineInPlace, let url, let method, let version, let target {
            nulInRequestLine = Self.requestLineHidesNUL(
                method: method, url: url, version: version, target: target, bound: Self.connectionMemory)
        }
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
            headers: headers, bodyLength: bodyLength, target: target?.text,
            nulInRequestLine: nulInRequestLine)
        let answer = router.respond(to: request, feed: feed)
        let response: OpaquePointer?
        switch answer.body {
        case .bytes(let bytes):
            // MHD_RESPMEM_MUST_COPY, whose Swift name differs between the library's versions.
            let mustCopy = MHD_ResponseMemoryMode(rawValue: 2)!
            response = bytes.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(
                    raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), mustCopy)
            }
        case .eventStream(let first):
            let socket = ambience_http_connection_fd(connection)
            var size = Self.streamSendBuffer
            _ = setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            let client = EventStreamClient(
                connection: connection, socket: socket, capacity: Self.streamCapacity, server: self)
            _ = client.buffer.append(first)
            streams[ObjectIdentifier(client)] = client
            response = MHD_create_response_from_callback(
                UInt64.max, 1024, readStream, Unmanaged.passRetained(client).toOpaque(), releaseStream)
        }
        guard let response else { return .NO }
        for header in answer.headers {
            _ = MHD_add_response_header(response, header.name, header.value)
        }
        let queued = MHD_queue_response(connection, UInt32(answer.status), response)
        MHD_destroy_response(response)
        return queued
    }

    fileprivate func forget(_ client: EventStreamClient) {
        streams[ObjectIdentifier(client)] = nil
    }

    fileprivate func started(_ connection: OpaquePointer) {
        connections[connection] = ConnectionRecord(socket: ambience_http_connection_fd(connection))
    }

    fileprivate func closed(_ connection: OpaquePointer) {
        connections[connection] = nil
    }

    /// A request line has been read: its first bytes were no reason to close the connection.
    fileprivate func logged(_ target: LoggedTarget?, on connection: OpaquePointer) {
        connections[connection]?.screening = false
        connections[connection]?.target = target
    }

    /// Whether a NUL byte was inside the method or the target, where the C strings end early.
    ///
    /// libmicrohttpd 0.9 parses `METHOD SP TARGET SP VERSION` where it lies: the space after the
    /// method becomes a NUL and `url` points past any further spaces, the space before the
    /// version becomes a NUL and `version` points after it. So between the end of the method's
    /// C string and `url` there is that one NUL and spaces, and the target takes the bytes from
    /// `url` up to `version` less one, which the URI log callback saw before any decoding. Read
    /// only when the pointers lie as described, within the connection's memory (`bound`).
    static func requestLineHidesNUL(
        method: UnsafePointer<CChar>, url: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
        target: LoggedTarget, bound: Int
    ) -> Bool {
        let methodEnd = method + strlen(method)
        let targetBytes = url.distance(to: version) - 1
        guard target.start == url, methodEnd < url, methodEnd.distance(to: url) < bound,
            targetBytes >= target.length, targetBytes < bound
        else { return false }
        if targetBytes != target.length { return true }
        return (methodEnd + 1..<url).contains { $0.pointee != 0x20 }
    }
}

private let handleRequest: MHD_AccessHandlerCallback = {
    context, connection, url, method, version, _, uploadSize, requestContext in
    guard let context, let connection, let requestContext else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    // Any non-null pointer marks the request as seen; MHD hands it back on the next call.
    let firstCall = requestContext.pointee == nil
    requestContext.pointee = context
    return server.handle(
        connection, url: url, method: method, version: version, uploadSize: uploadSize?.pointee ?? 0,
        firstCall: firstCall)
}

/// The URI log callback: the target before decoding. Returns no request context, so the access
/// handler's first call still finds none.
private let logTarget: ambience_http_uri_logger = { context, uri, connection in
    guard let context, let connection else { return nil }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let target = uri.map { LoggedTarget(start: $0, length: strlen($0), text: String(cString: $0)) }
    server.logged(target, on: connection)
    return nil
}

private let noteConnection: MHD_NotifyConnectionCallback = { context, connection, _, code in
    guard let context, let connection else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED: server.started(connection)
    case .CONNECTION_NOTIFY_CLOSED: server.closed(connection)
    default: break
    }
}

private let collectHeader: MHD_KeyValueIterator = { context, _, key, value in
    guard let context else { return .NO }
    let headers = context.assumingMemoryBound(to: [(name: String, value: String)].self)
    headers.pointee.append((key.map { String(cString: $0) } ?? "", value.map { String(cString: $0) } ?? ""))
    return .YES
}

/// MHD asks for more of a stream when its socket can take it: what is queued, or nothing and the
/// connection suspended until `broadcast` resumes it (returning 0 without suspending would spin).
private let readStream: MHD_ContentReaderCallback = { context, _, buffer, maximum in
    guard let context, let buffer else { return -2 }
    let client = Unmanaged<EventStreamClient>.fromOpaque(context).takeUnretainedValue()
    if client.dropped { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR: close it
    if client.buffer.isEmpty {
        client.suspended = true
        MHD_suspend_connection(client.connection)
        return 0
    }
    return client.buffer.take(into: UnsafeMutableRawBufferPointer(start: buffer, count: maximum))
}

private let releaseStream: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let client = Unmanaged<EventStreamClient>.fromOpaque(context).takeRetainedValue()
    client.server.forget(client)
}
