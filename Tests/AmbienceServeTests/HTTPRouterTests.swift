import AmbienceServe
import Testing

@Suite struct HTTPRouterTests {
    static let router = HTTPRouter()

    static func feed(_ lines: String...) -> EventFeed {
        var feed = EventFeed()
        for line in lines { _ = feed.consume(Array((line + "\n").utf8)) }
        return feed
    }

    static func get(_ path: String, feed: EventFeed = EventFeed(), router: HTTPRouter = router)
        -> HTTPResponse
    {
        router.respond(to: HTTPRequest(method: "GET", path: path), feed: feed)
    }

    static func text(_ response: HTTPResponse) -> String {
        switch response.body {
        case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
        case .eventStream(let first): String(decoding: first, as: UTF8.self)
        }
    }

    @Test func stateBeforeTheFirstEventIsUnavailable() {
        let response = Self.get("/state")
        #expect(response.status == 503)
        #expect(Self.text(response) == "{\"state\":null}\n")
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Retry-After") == "1")
    }

    @Test func stateIsTheLatestChangeAsCurrent() {
        let feed = Self.feed(
            #"{"event":"current","state":"regular","previous":null,"lux":80}"#,
            #"{"event":"change","state":"invert","previous":"regular","lux":3}"#,
            #"{"event":"fault","state":"invert","previous":null,"lux":null}"#)
        let response = Self.get("/state", feed: feed)
        #expect(response.status == 200)
        #expect(
            Self.text(response) == #"{"event":"current","state":"invert","previous":"regular","lux":3}"#
                + "\n")
        #expect(response.header("Cache-Control") == "no-cache")
        #expect(response.header("Access-Control-Allow-Origin") == "*")
    }

    @Test func eventsStartWithRetryThenCurrent() {
        #expect(Self.text(Self.get("/events")) == "retry: 2000\n\n")
        let response = Self.get("/events", feed: Self.feed(#"{"event":"change","state":"contrast"}"#))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/event-stream")
        #expect(response.header("Cache-Control") == "no-cache")
        #expect(
            Self.text(response)
                == "retry: 2000\n\nevent: current\ndata: {\"event\":\"current\",\"state\":\"contrast\"}\n\n")
    }

    @Test func scriptAndPage() {
        let script = Self.get("/ambience.js")
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        for needle in ["data-ambience", "colorScheme", "ambiencechange", "EventSource.CLOSED", "previous"] {
            #expect(Self.text(script).contains(needle))
        }
        let page = Self.get("/")
        #expect(page.status == 200)
        #expect(Self.text(page).contains("<script src=\"/ambience.js\"></script>"))
    }

    @Test(arguments: ["/nothing", "/state/", "/STATE", "/favicon.ico", "//state"])
    func unknownPaths(path: String) {
        #expect(Self.get(path).status == 404)
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "HEAD", "PATCH", "CONNECT", "TRACE"])
    func onlyGet(method: String) {
        let response = Self.router.respond(to: HTTPRequest(method: method, path: "/state"), feed: EventFeed())
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, OPTIONS")
    }

    @Test func preflight() {
        let request = HTTPRequest(
            method: "OPTIONS", path: "/events",
            headers: [
                ("Origin", "https://dash.example"), ("Access-Control-Request-Method", "GET"),
                ("Access-Control-Request-Headers", "last-event-id, cache-control"),
                ("Access-Control-Request-Private-Network", "true"),
            ])
        let response = Self.router.respond(to: request, feed: EventFeed())
        #expect(response.status == 204)
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        #expect(response.header("Access-Control-Allow-Methods") == "GET, OPTIONS")
        #expect(response.header("Access-Control-Allow-Private-Network") == "true")
        #expect(response.header("Access-Control-Allow-Headers") == "last-event-id, cache-control")
    }

    @Test func preflightDoesNotEchoWhatIsNotAFieldList() {
        let request = HTTPRequest(
            method: "OPTIONS", path: "/state", headers: [("Access-Control-Request-Headers", "a; b=\"c\"")])
        #expect(
            Self.router.respond(to: request, feed: EventFeed()).header("Access-Control-Allow-Headers") == nil)
    }

    @Test func oneOrigin() {
        let router = HTTPRouter(allowedOrigin: "https://dash.example")
        let response = Self.get("/state", router: router)
        #expect(response.header("Access-Control-Allow-Origin") == "https://dash.example")
        #expect(response.header("Vary") == "Origin")
    }

    @Test func limits() {
        let long = "/" + String(repeating: "a", count: 2048)
        #expect(Self.get(long).status == 414)
        let big = HTTPRequest(
            method: "GET", path: "/state", headers: [("X-Big", String(repeating: "b", count: 8200))])
        #expect(Self.router.respond(to: big, feed: EventFeed()).status == 431)
        let many = HTTPRequest(method: "GET", path: "/state", headers: (0..<65).map { ("X-\($0)", "1") })
        #expect(Self.router.respond(to: many, feed: EventFeed()).status == 431)
        let fits = HTTPRequest(method: "GET", path: "/state", headers: (0..<64).map { ("X-\($0)", "1") })
        #expect(Self.router.respond(to: fits, feed: EventFeed()).status == 503)
    }

    @Test(arguments: [
        HTTPRequest(method: "GET", path: "state"),
        HTTPRequest(method: "GET", path: "*"),
        HTTPRequest(method: "GET", path: "/st ate"),
        HTTPRequest(method: "GET", path: "/\u{7F}"),
        HTTPRequest(method: "GET", path: "/é"),
        HTTPRequest(method: "G(T", path: "/state"),
        HTTPRequest(method: "GET", path: "/state", headers: [("Bad Name", "x")]),
        HTTPRequest(method: "GET", path: "/state", headers: [("X", "a\u{0}b")]),
        HTTPRequest(method: "GET", path: "/state", headers: [("X", "a\rb")]),
        HTTPRequest(method: "GET", path: "/state", bodyLength: 5),
        HTTPRequest(method: "OPTIONS", path: "/state", bodyLength: 1),
        // `GET /state\0 HTTP/1.1` and `GET\0X /state HTTP/1.1`, as the C strings show them.
        HTTPRequest(method: "GET", path: "/state", target: "/state", nulInRequestLine: true),
        HTTPRequest(method: "GET", path: "/state", nulInRequestLine: true),
        HTTPRequest(method: "GET", path: "/state", target: "/state%00"),
        HTTPRequest(method: "GET", path: "/state", target: "/st%00ate?x=1"),
        HTTPRequest(method: "GET", path: "/", target: "/%00"),
    ])
    func malformed(request: HTTPRequest) {
        #expect(Self.router.respond(to: request, feed: EventFeed()).status == 400)
    }

    @Test(arguments: [
        HTTPRequest(method: "GET", path: "/state", target: "/state"),
        HTTPRequest(method: "GET", path: "/state", target: "/st%61te"),
        HTTPRequest(method: "GET", path: "/state", target: "/state?x=%00"),
        HTTPRequest(method: "GET", path: "/state", target: "/state%0"),
        HTTPRequest(method: "GET", path: "/state", target: "/state%100"),
    ])
    func wellFormedTargets(request: HTTPRequest) {
        #expect(Self.router.respond(to: request, feed: EventFeed()).status == 503)
    }
}

@Suite struct ConnectionStartTests {
    @Test(arguments: ["", "\r", "\r\n", "\n", "\r\n\n\r\n", "\r\n\r"])
    func undecided(text: String) {
        #expect(ConnectionStart(Array(text.utf8)) == .undecided)
    }

    @Test(arguments: [
        "G", "GET / HTTP/1.1\r\n", "\r\nGET", "\nGARBAGE\r\n\r\n", "\r\r\n", "\rX", "\u{1}\0\r\n",
        " \0",
    ])
    func requestLine(text: String) {
        #expect(ConnectionStart(Array(text.utf8)) == .requestLine)
    }

    @Test func aLineThatBeginsWithNULIsNoRequestLine() {
        for bytes: [UInt8] in [
            [0], [0, 1, 2, 3, 13, 10, 13, 10], [13, 10, 0], [10, 13, 10, 0, 71, 69, 84], [0, 13],
        ] {
            #expect(ConnectionStart(bytes) == .malformed, "\(bytes)")
        }
        #expect(ConnectionStart([UInt8]("\r\n".utf8)[...]) == .undecided)
    }
}

@Suite struct EventFeedTests {
    @Test func eventsInOrderAcrossReads() {
        var feed = EventFeed()
        #expect(feed.consume(Array(#"{"event":"current","state":"reg"#.utf8)) == [])
        let messages = feed.consume(Array("ular\"}\n{\"event\":\"change\",\"state\":\"invert\"}\n".utf8))
        #expect(messages.map(\.name) == ["current", "change"])
        #expect(
            messages.map(\.data) == [
                #"{"event":"current","state":"regular"}"#, #"{"event":"change","state":"invert"}"#,
            ])
        #expect(feed.latest == #"{"event":"current","state":"invert"}"#)
    }

    @Test func faultsPassButKeepTheState() {
        var feed = EventFeed()
        _ = feed.consume(Array("{\"event\":\"current\",\"state\":\"regular\"}\n".utf8))
        let messages = feed.consume(Array("{\"event\":\"fault\",\"state\":\"regular\",\"lux\":null}\n".utf8))
        #expect(messages.map(\.name) == ["fault"])
        #expect(feed.latest == #"{"event":"current","state":"regular"}"#)
    }

    @Test func plainLines() {
        var feed = EventFeed()
        let messages = feed.consume(Array("contrast\n".utf8))
        #expect(messages == [.init(name: "change", data: #"{"event":"change","state":"contrast"}"#)])
        #expect(feed.latest == #"{"event":"current","state":"contrast"}"#)
    }

    @Test(arguments: [
        "garbage", "{\"event\":\"chan\rge\"}", "{\"state\":\"invert\"}",
        "{\"event\":\"Change\",\"state\":\"x\"}",
        "{\"event\":\"\"}", "{\"event\":\"change\"", "[1,2]", "",
    ])
    func notEvents(line: String) {
        var feed = EventFeed()
        #expect(feed.consume(Array((line + "\n").utf8)) == [])
        #expect(feed.latest == nil)
    }

    @Test func aPartialLineIsForgottenWhenTheWriterLeaves() {
        var feed = EventFeed()
        _ = feed.consume(Array("{\"event\":\"change\",".utf8))
        feed.disconnected()
        #expect(feed.consume(Array("\"state\":\"invert\"}\n".utf8)) == [])
    }

    @Test func framing() {
        #expect(EventStreamFormat.event("change", data: "{}") == Array("event: change\ndata: {}\n\n".utf8))
        #expect(EventStreamFormat.retry(milliseconds: 500) == Array("retry: 500\n\n".utf8))
        #expect(EventStreamFormat.keepAlive == Array(": keep-alive\n\n".utf8))
    }
}

@Suite struct StreamBufferTests {
    @Test func boundedFirstInFirstOut() {
        var buffer = StreamBuffer(capacity: 8)
        let first = buffer.append(Array("abcde".utf8))
        let overflow = buffer.append(Array("fghi".utf8))
        #expect(first && !overflow)
        #expect(buffer.count == 5)
        var out = [UInt8](repeating: 0, count: 3)
        let taken = out.withUnsafeMutableBytes { buffer.take(into: $0) }
        #expect(taken == 3)
        #expect(out == Array("abc".utf8))
        let second = buffer.append(Array("fghij".utf8))
        #expect(second)
        var rest = [UInt8](repeating: 0, count: 16)
        let count = rest.withUnsafeMutableBytes { buffer.take(into: $0) }
        #expect(Array(rest[..<count]) == Array("defghij".utf8))
        #expect(buffer.isEmpty)
    }
}
