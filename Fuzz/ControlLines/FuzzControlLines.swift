import AmbienceCore

/// libFuzzer entry: any bytes as a control-pipe line; a parsed override must be well formed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .hold(_, let duration?) = try? ControlLine.parse(line), !(duration.isFinite && duration > 0) {
        fatalError("accepted a duration of \(duration) s")
    }
    return 0
}
