import AmbienceCore
import AmbienceRecord

/// libFuzzer entry: any bytes as a replay trace, line by line, until the first malformed row.
/// Every event line must be whole, and a record's row must read back the same once written again.
/// The input stops at a run taking it past `rowBudget` rows: 4 kB of `*100000` lines are 50
/// million rows, a time-out that says nothing about the reader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplayRows(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var replay = Replay(configuration: .indoorKiosk, format: .json, summarize: true)
    var rows = TraceReader()
    var again = TraceReader()
    _ = try? again.row(Array(LightRecord.header.utf8)[...])
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let rowBudget = 20_000
    var rowsLeft = rowBudget
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        let run =
            line.first == UInt8(ascii: "*") ? Int(String(decoding: line.dropFirst(), as: UTF8.self)) : nil
        rowsLeft -= min(max(run ?? 1, 1), rowBudget + 1)
        if rowsLeft < 0 { break }
        do {
            for event in try replay.consume(line) where !event.hasSuffix("}\n") {
                fatalError("torn line: \(event)")
            }
            if let row = try rows.row(line), let recorded = row.recorded {
                let written = LightRecord.line(
                    LightRecord.Row(
                        time: row.time, lux: row.lux, filtered: recorded.filtered, state: recorded.state,
                        isFaulted: recorded.isFaulted, override: recorded.override))
                let read = try again.row(Array(written.utf8.dropLast())[...])
                guard let read, read.time == row.time, read.lux == row.lux,
                    read.recorded?.state == recorded.state, read.recorded?.override == recorded.override,
                    read.recorded?.isFaulted == recorded.isFaulted
                else { fatalError("a record row did not read back: \(written)") }
            }
        } catch {
            break
        }
    }
    _ = replay.totals
    return 0
}
