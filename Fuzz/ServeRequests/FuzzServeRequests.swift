import AmbienceServe

/// libFuzzer entry for serve's request path behind libmicrohttpd's parser: the bytes up to a
/// double NUL are a request (`METHOD PATH`, then `Name: value` lines, split the way MHD hands
/// them over), the rest what the daemon's pipe delivered. Every answer must be one of the
/// documented statuses, no header may carry a line break (response splitting), an oversized
/// request must be refused as such, one whose request line was cut at a NUL (or whose target's
/// path holds `%00`) must be refused, and no event may break the event-stream framing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServeRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = (0..<max(0, bytes.count - 1)).first { bytes[$0] == 0 && bytes[$0 + 1] == 0 } ?? bytes.count
    let requestText = String(decoding: bytes[..<split], as: UTF8.self)
    let pipeBytes = bytes[min(bytes.count, split + 2)...]

    var feed = EventFeed()
    for message in feed.consume(pipeBytes) {
        let frame = EventStreamFormat.event(message.name, data: message.data)
        let text = String(decoding: frame, as: UTF8.self)
        guard !message.name.isEmpty, message.name.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else {
            fatalError("event name \(message.name.debugDescription)")
        }
        guard !message.data.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 }),
            text.utf8.filter({ $0 == 10 }).count == 3, text.hasSuffix("\n\n")
        else { fatalError("event breaks the framing: \(text.debugDescription)") }
    }
    if let latest = feed.latest, !latest.hasPrefix("{\"event\":\"current\"") {
        fatalError("latest is not a current event: \(latest.debugDescription)")
    }

    let lines = requestText.split(separator: "\n", omittingEmptySubsequences: false)
    let requestLine = lines.first.map { $0.split(separator: " ", maxSplits: 1) } ?? []
    let headers = lines.dropFirst().map { line -> (name: String, value: String) in
        let colon = line.firstIndex(of: ":") ?? line.endIndex
        return (String(line[..<colon]), String(line[colon...].dropFirst()))
    }
    let method = requestLine.first.map(String.init) ?? ""
    let path = requestLine.dropFirst().first.map(String.init) ?? ""
    let bodyLength = size % 3 == 0 ? size : 0
    // The target as sent is the path before decoding: here the path itself, on some inputs.
    let target = size % 2 == 0 ? path : nil
    let nulInRequestLine = size % 5 == 0
    let request = HTTPRequest(
        method: method, path: path, headers: headers, bodyLength: bodyLength, target: target,
        nulInRequestLine: nulInRequestLine)
    let targetPath = Array((target ?? "").utf8.prefix { $0 != UInt8(ascii: "?") })
    let encodedNUL =
        targetPath.count >= 3
        && (0...targetPath.count - 3).contains { index in
            targetPath[index] == UInt8(ascii: "%") && targetPath[index + 1] == UInt8(ascii: "0")
                && targetPath[index + 2] == UInt8(ascii: "0")
        }
    for router in [HTTPRouter(), HTTPRouter(allowedOrigin: "https://dash.example:8123")] {
        let response = router.respond(to: request, feed: feed)
        guard [200, 204, 400, 404, 405, 414, 431, 503].contains(response.status) else {
            fatalError("status \(response.status)")
        }
        for header in response.headers
        where header.name.isEmpty
            || (header.name + header.value).utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 })
        {
            fatalError("header \(header.name.debugDescription): \(header.value.debugDescription)")
        }
        let limits = router.limits
        let headerBytes = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if request.path.utf8.count > limits.pathBytes, response.status != 414 {
            fatalError("an oversized path got \(response.status)")
        }
        if request.path.utf8.count <= limits.pathBytes,
            headerBytes > limits.headerBytes || request.headers.count > limits.headerCount,
            response.status != 431
        {
            fatalError("oversized header fields got \(response.status)")
        }
        if response.status == 200 || response.status == 204, request.bodyLength > 0 {
            fatalError("a request with a body was answered \(response.status)")
        }
        if nulInRequestLine || encodedNUL, ![400, 414, 431].contains(response.status) {
            fatalError("a request line cut at a NUL got \(response.status)")
        }
    }
    return 0
}
