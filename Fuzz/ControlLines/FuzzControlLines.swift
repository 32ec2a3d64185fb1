import AmbienceCore

/// libFuzzer entry: any bytes as a control-pipe line; a parsed override or brightness must be well formed,
/// `record` is the word alone, and `outputs` is followed by its power alone.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .hold(_, let duration?) = try? ControlLine.parse(line), !(duration.isFinite && duration > 0) {
        fatalError("accepted a duration of \(EventLine.number(duration)) s")
    }
    if case .brightness(.hold(let percent, let duration)) = try? ControlLine.request(line),
        !(0...100).contains(percent) || duration.map({ !($0.isFinite && $0 > 0) }) == true
    {
        fatalError("accepted brightness \(percent) for \(EventLine.number(duration)) s")
    }
    if case .record = try? ControlLine.request(line),
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }) != ["record"]
    {
        fatalError("took '\(line)' for record")
    }
    if case .outputs(let power) = try? ControlLine.request(line),
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
            != ["outputs", Substring(power.rawValue)]
    {
        fatalError("took '\(line)' for outputs \(power.rawValue)")
    }
    return 0
}
