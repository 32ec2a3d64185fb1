import AmbienceCore
import AmbienceOutputs
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A reader of a named pipe, the way a kiosk would be one, but never blocking the test.
final class PipeReader {
    let descriptor: FileDescriptor
    private var partial: [UInt8] = []

    init(_ path: String) throws {
        descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
    }

    /// Reads at most `limit` bytes, as a reader that stops mid-line would.
    func readBytes(_ limit: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { (try? descriptor.read(into: $0)) ?? 0 }
        return Array(buffer[..<count])
    }

    /// Everything readable now, as whole lines without "\n"; a partial line waits for the rest.
    func lines() -> [String] {
        var lines: [String] = []
        while true {
            let bytes = readBytes(1 << 16)
            if bytes.isEmpty { return lines }
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    lines.append(String(decoding: partial, as: UTF8.self))
                    partial.removeAll()
                } else {
                    partial.append(byte)
                }
            }
        }
    }

    var hasPartialLine: Bool { !partial.isEmpty }

    func close() { descriptor.close() }
}

/// Messages a sink logged.
final class LogRecorder {
    var messages: [String] = []
    var log: OutputLog { { [unowned self] in self.messages.append($0) } }
}

func change(
    _ state: AmbienceState, from previous: AmbienceState?, at time: Double, lux: Double = 100,
    reason: Event.Reason = .light
) -> Event {
    Event(
        kind: .change, state: state, previous: previous, animated: previous != nil, reason: reason, lux: lux,
        filtered: lux, time: time)
}

func fault(holding state: AmbienceState?, at time: Double) -> Event {
    Event(
        kind: .fault, state: state, previous: nil, animated: false, reason: nil, lux: nil, filtered: 50,
        time: time)
}

func recovered(holding state: AmbienceState?, at time: Double) -> Event {
    Event(
        kind: .recovered, state: state, previous: nil, animated: false, reason: nil, lux: 60, filtered: 55,
        time: time)
}

/// The fields of an event line the tests look at, or nil if the line is not a whole event line.
struct ParsedLine: Equatable {
    var event: String
    var state: String
    var animated: Bool

    init?(_ line: String) {
        guard line.hasPrefix("{\"event\":\""), line.hasSuffix("}"), !line.dropLast().contains("}"),
            let event = Self.field("event", line), let state = Self.field("state", line),
            let animated = Self.field("animated", line)
        else { return nil }
        self.event = event.replacingQuotes
        self.state = state.replacingQuotes
        self.animated = animated == "true"
    }

    private static func field(_ key: String, _ line: String) -> String? {
        let parts = line.dropFirst().dropLast().split(separator: ",")
        return parts.first { $0.hasPrefix("\"\(key)\":") }.map { String($0.dropFirst(key.count + 3)) }
    }
}

extension String {
    fileprivate var replacingQuotes: String { filter { $0 != "\"" } }
}

func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode : nil
}

func contents(_ path: String) -> String? {
    guard let file = try? FileDescriptor.open(path, O_RDONLY) else { return nil }
    defer { file.close() }
    var reader = LineReader(descriptor: file)
    var text = ""
    while let line = try? reader.nextLine() { text += String(decoding: line, as: UTF8.self) + "\n" }
    return text
}
