import AmbienceDisplayProtocols

/// libFuzzer entry: any bytes as what a display sends back (a DDC/CI reply, an EDID) or a host's
/// message as a monitor hears it. The first byte picks the decoder. What is accepted must encode
/// back to the bytes it came from, so nothing a monitor sends is taken for something else.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDisplayReplies(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0:
        guard let value = try? DDCCI.decodeGetReply(bytes, code: DDCCI.brightness) else { return 0 }
        // A reply's type byte is 0x00 or 0x01 when it round-trips; others read as a set parameter.
        if bytes.count >= DDCCI.getReplyLength, bytes[5] <= 0x01,
            DDCCI.getReply(value) != Array(bytes[0..<DDCCI.getReplyLength])
        {
            fatalError("accepted a reply that does not encode back: \(bytes)")
        }
    case 1:
        let encoded: [UInt8]
        switch DDCCI.decodeRequest(bytes) {
        case .get(let code)?: encoded = DDCCI.getRequest(code)
        case .set(let code, let value)?: encoded = DDCCI.setRequest(code, value: value)
        case nil: return 0
        }
        if encoded != bytes { fatalError("accepted a request that does not encode back: \(bytes)") }
    default:
        guard let edid = try? EDID(decoding: bytes) else { return 0 }
        if edid.manufacturer.utf8.count != 3 {
            fatalError("a manufacturer id of \(edid.manufacturer.utf8.count) bytes")
        }
        if bytes[0..<EDID.length].reduce(UInt8(0), &+) != 0 { fatalError("accepted a bad checksum") }
    }
    return 0
}
