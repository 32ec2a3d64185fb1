import AmbienceCore
import AmbienceSystem
import AmbienceTestSupport
import Testing

@testable import AmbienceOutputs

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct StateFileSinkTests {
    let directory = TemporaryDirectory()
    let log = LogRecorder()

    func makeSink(_ path: String) throws -> StateFileSink {
        try StateFileSink(path: path, renderTime: EventTime.seconds, log: log.log)
    }

    @Test func holdsTheLatestEventLine() throws {
        let path = directory.file("run/state.json")
        let sink = try makeSink(path)
        #expect(contents(path) == nil)
        sink.deliver(change(.regular, from: nil, at: 1, reason: .startup))
        sink.deliver(change(.contrast, from: .regular, at: 9))
        #expect(
            contents(path)
                == #"{"event":"change","state":"contrast","previous":"regular","animated":true,"reason":"light","lux":100,"filtered":100,"time":9,"override":null,"override_remaining_s":null,"fault":false,"brightness":null}"#
                + "\n")
        sink.deliver(fault(holding: .contrast, at: 15))
        #expect(contents(path).flatMap { ParsedLine(String($0.dropLast())) }?.event == "fault")
        #expect(try FileSystem.entries(of: directory.file("run")) == ["state.json"])
        #expect(log.messages.isEmpty)
    }

    @Test func aReaderOfTheOldFileKeepsAWholeOldFile() throws {
        let path = directory.file("state.json")
        let sink = try makeSink(path)
        sink.deliver(change(.regular, from: nil, at: 1))
        let early = try FileDescriptor.open(path, O_RDONLY)
        defer { early.close() }
        sink.deliver(change(.invert, from: .regular, at: 6))

        // Replaced by rename, never rewritten in place: the descriptor opened before still
        // reads the whole old line, and a new open reads the whole new one.
        var reader = LineReader(descriptor: early)
        let old = try reader.nextLine().map { String(decoding: $0, as: UTF8.self) }
        #expect(old.flatMap(ParsedLine.init)?.state == "regular")
        #expect(contents(path).flatMap { ParsedLine(String($0.dropLast())) }?.state == "invert")
    }

    @Test func aFailedWriteIsReportedOnceAndRetriedOnPoll() throws {
        let path = directory.file("state.json")
        let sink = try makeSink(path)
        mkdir(path, 0o755)  // a directory where the file goes: every rename fails
        sink.deliver(change(.regular, from: nil, at: 1))
        sink.deliver(change(.invert, from: .regular, at: 6))
        for tick in 0..<30 { sink.poll(now: Double(tick) / 10) }
        #expect(log.messages.count == 1)

        rmdir(path)
        sink.poll(now: 3.5)
        #expect(contents(path).flatMap { ParsedLine(String($0.dropLast())) }?.state == "invert")
        #expect(log.messages.count == 2)
        #expect(log.messages.last?.contains("written again") == true)
    }

    @Test func closeRemovesTheFileSoStatusKnowsTheDaemonStopped() throws {
        let path = directory.file("state.json")
        let sink = try makeSink(path)
        sink.deliver(change(.regular, from: nil, at: 1))
        #expect(contents(path) != nil)
        sink.close()
        #expect(contents(path) == nil)
    }
}
