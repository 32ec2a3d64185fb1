/// A request as the HTTP library parsed it: what the routing and the limits look at.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path, without the query string.
    public var path: String
    public var headers: [(name: String, value: String)]
    /// Bytes of body sent with it; GET and OPTIONS take none.
    public var bodyLength: Int
    /// The request target as sent, before the library decoded it; nil when the library does not
    /// show it. Its path must not hold `%00`: decoded, that NUL would end `path` there.
    public var target: String?
    /// The request line held a NUL byte inside the method or the target. The library hands both
    /// over as C strings, so `method`, `path` and `target` end at that NUL: what they hold is
    /// not what was asked for.
    public var nulInRequestLine: Bool

    public init(
        method: String, path: String, headers: [(name: String, value: String)] = [], bodyLength: Int = 0,
        target: String? = nil, nulInRequestLine: Bool = false
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.bodyLength = bodyLength
        self.target = target
        self.nulInRequestLine = nulInRequestLine
    }

    /// The first field of that name, compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

public struct HTTPResponse: Equatable, Sendable {
    public enum Body: Equatable, Sendable {
        case bytes([UInt8])
        /// Server-Sent Events: these bytes first, then every event as it comes.
        case eventStream(first: [UInt8])
    }

    public var status: Int
    public var headers: [Header]
    public var body: Body

    public struct Header: Equatable, Sendable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The limits of what a request may be; beyond them it is refused, never truncated.
public struct HTTPLimits: Equatable, Sendable {
    /// The path: 2 KiB, far more than the four paths need.
    public var pathBytes = 2048
    /// The header fields together, names and values: 8 KiB, as most servers allow.
    public var headerBytes = 8192
    public var headerCount = 64

    public init() {}
}

/// Turns a request into an answer: the limits, the four paths, CORS. Pure, so the whole request
/// path behind the HTTP library's parser can be unit-tested and fuzzed.
public struct HTTPRouter: Sendable {
    public var allowedOrigin: String
    public var limits: HTTPLimits
    /// Milliseconds an EventSource waits before reconnecting, sent as `retry:`.
    public var retryMilliseconds: Int

    public init(allowedOrigin: String = "*", limits: HTTPLimits = HTTPLimits(), retryMilliseconds: Int = 2000)
    {
        self.allowedOrigin = allowedOrigin
        self.limits = limits
        self.retryMilliseconds = retryMilliseconds
    }

    public enum Route: String, CaseIterable, Sendable {
        case index = "/"
        case state = "/state"
        case events = "/events"
        case script = "/ambience.js"
    }

    public func respond(to request: HTTPRequest, feed: EventFeed) -> HTTPResponse {
        if request.path.utf8.count > limits.pathBytes {
            return plain(414, "the path is longer than \(limits.pathBytes) bytes")
        }
        let headerBytes = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if request.headers.count > limits.headerCount || headerBytes > limits.headerBytes {
            return plain(431, "the header fields are larger than \(limits.headerBytes) bytes")
        }
        guard Self.isWellFormed(request) else { return plain(400, "malformed request") }
        guard let route = Route(rawValue: request.path) else { return plain(404, "no such path") }
        switch request.method {
        case "GET":
            guard request.bodyLength == 0 else { return plain(400, "GET takes no body") }
            return answer(route, feed: feed)
        case "OPTIONS":
            guard request.bodyLength == 0 else { return plain(400, "OPTIONS takes no body") }
            return preflight(request)
        default:
            var response = plain(405, "only GET")
            response.headers.append(.init("Allow", "GET, OPTIONS"))
            return response
        }
    }

    /// The CORS fields every answer carries.
    public var corsHeaders: [HTTPResponse.Header] {
        // One origin named: caches must keep answers for different origins apart.
        allowedOrigin == "*"
            ? [.init("Access-Control-Allow-Origin", "*")]
            : [.init("Access-Control-Allow-Origin", allowedOrigin), .init("Vary", "Origin")]
    }

    private func answer(_ route: Route, feed: EventFeed) -> HTTPResponse {
        switch route {
        case .state:
            guard let latest = feed.latest else {
                // Before the first event: nothing is known yet, and a client can tell by the status.
                var response = body(503, "application/json", Array(#"{"state":null}"#.utf8) + [10])
                response.headers.append(.init("Retry-After", "1"))
                return response
            }
            return body(200, "application/json", Array(latest.utf8) + [10])
        case .events:
            var first = EventStreamFormat.retry(milliseconds: retryMilliseconds)
            if let latest = feed.latest { first += EventStreamFormat.event("current", data: latest) }
            return HTTPResponse(
                status: 200,
                headers: [
                    .init("Content-Type", "text/event-stream"), .init("Cache-Control", "no-cache"),
                    .init("X-Accel-Buffering", "no"),
                ] + corsHeaders,
                body: .eventStream(first: first))
        case .script:
            return body(200, "text/javascript; charset=utf-8", Array(Assets.script.utf8))
        case .index:
            return body(200, "text/html; charset=utf-8", Array(Assets.index.utf8))
        }
    }

    /// A CORS preflight: GET from the allowed origin, with what the page asks for, including
    /// Chrome's Private Network Access (a public page reading a loopback server).
    private func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers =
            corsHeaders + [
                .init("Access-Control-Allow-Methods", "GET, OPTIONS"),
                .init("Access-Control-Allow-Private-Network", "true"),
                .init("Access-Control-Max-Age", "86400"),
            ]
        if let asked = request.header("Access-Control-Request-Headers"), Self.isTokenList(asked) {
            headers.append(.init("Access-Control-Allow-Headers", asked))
        }
        return HTTPResponse(status: 204, headers: headers, body: .bytes([]))
    }

    private func body(_ status: Int, _ type: String, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [.init("Content-Type", type), .init("Cache-Control", "no-cache")] + corsHeaders,
            body: .bytes(bytes))
    }

    private func plain(_ status: Int, _ message: String) -> HTTPResponse {
        body(status, "text/plain; charset=utf-8", Array((message + "\n").utf8))
    }

    /// An origin-form path of visible ASCII, and header fields a proxy would pass on unchanged.
    static func isWellFormed(_ request: HTTPRequest) -> Bool {
        guard !request.nulInRequestLine, !(request.target.map(hasEncodedNUL) ?? false),
            request.path.hasPrefix("/"), request.path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            !request.method.isEmpty, isToken(request.method)
        else { return false }
        return request.headers.allSatisfy {
            isToken($0.name) && $0.value.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 9 }
        }
    }

    /// `%00` in the path part of a target (the query is not looked at).
    private static func hasEncodedNUL(_ target: String) -> Bool {
        let path = Array(target.utf8.prefix { $0 != UInt8(ascii: "?") })
        return path.indices.dropLast(2).contains { path[$0...$0 + 2].elementsEqual("%00".utf8) }
    }

    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                    || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
    }

    /// `Last-Event-ID, cache-control`: echoed back only when it is nothing but field names.
    private static func isTokenList(_ text: String) -> Bool {
        text.split(separator: ",").allSatisfy { isToken(String($0.filter { $0 != " " && $0 != "\t" })) }
    }
}
