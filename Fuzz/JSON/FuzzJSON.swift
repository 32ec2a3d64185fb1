import JSON

/// libFuzzer entry: any bytes as a JSON document (what a browser or broker may send); whatever
/// parses must write back to text that parses to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let value = try? JSONValue.parse(UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    guard let again = try? JSONValue.parse(value.text), again == value else {
        fatalError("\(value.text) does not read back as itself")
    }
    return 0
}
