import AmbienceCore

/// libFuzzer entry: any bytes as what a pipe's reads gave, framed and decoded as every reader
/// does. Framed lines hold no "\n" and fit the limit; every "\n" ends one line, passed on or
/// skipped; a decoded line holds no control character and reads the same a second time.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // A small limit, so that inputs libFuzzer makes reach it; reads of 7 bytes, so lines split.
    var framer = LineFramer(limit: 64)
    var lines: [[UInt8]] = []
    for start in stride(from: 0, to: size, by: 7) {
        lines += framer.push(bytes[start..<min(start + 7, size)])
    }
    let newlines = bytes.filter { $0 == UInt8(ascii: "\n") }.count
    if lines.count + framer.skipped != newlines {
        fatalError("\(newlines) newlines framed as \(lines.count) lines")
    }
    for line in lines {
        if line.count >= framer.limit || line.contains(UInt8(ascii: "\n")) { fatalError("framed \(line)") }
        guard let event = try? EventLine.decode(line) else { continue }
        if event.text.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 }) {
            fatalError("kept a control character")
        }
        guard let again = try? EventLine.decode(event.text), again == event else {
            fatalError("'\(event.text)' reads differently a second time")
        }
    }
    return 0
}
