import AmbienceCore

/// libFuzzer entry: any bytes as a replay trace, line by line, until the first malformed row.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplayRows(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var replay = Replay(configuration: .indoorKiosk, format: .json)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        do {
            for event in try replay.consume(line) where !event.hasSuffix("}\n") {
                fatalError("torn line: \(event)")
            }
        } catch {
            break
        }
    }
    return 0
}
