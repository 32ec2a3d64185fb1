import AmbienceCore
import AmbienceRecord

// `ambience replay` over standard input, built in Embedded Swift from the pure core alone: the
// rows in, the event lines (or, with SUMMARY set, the summary table) out. Tests/embedded/run.sh
// compares its output with the portable build's, byte for byte.

@_extern(c, "read") func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
@_extern(c, "getenv") func getenv(_ name: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?
@_extern(c, "write") func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int

func writeOut(_ text: String) {
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { write(1, $0.baseAddress! + written, $0.count - written) }
        if result <= 0 { return }
        written += result
    }
}

var input: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 65536)
while true {
    let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    if count <= 0 { break }
    input += chunk[0..<count]
}

let summarize = getenv("SUMMARY") != nil
var replay = Replay(configuration: .indoorKiosk, format: .json, summarize: summarize)
var start = 0
while start < input.count {
    var end = start
    while end < input.count, input[end] != 10 { end += 1 }
    do throws(Replay.RowError) {
        for line in try replay.consume(input[start..<end]) where !summarize { writeOut(line) }
    } catch {
        writeOut("row error\n")
        break
    }
    start = end + 1
}
if let totals = replay.totals { writeOut(SummaryTable.text([totals], names: ["-"])) }
