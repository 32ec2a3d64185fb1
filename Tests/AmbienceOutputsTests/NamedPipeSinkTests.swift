import AmbienceCore
import AmbienceSystem
import AmbienceTestSupport
import Testing

@testable import AmbienceOutputs

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct NamedPipeSinkTests {
    let directory = TemporaryDirectory()
    let log = LogRecorder()

    func makeSink(format: EventLine.Format = .json, name: String = "state") throws -> NamedPipeSink {
        try NamedPipeSink(
            .init(path: directory.file(name), format: format), renderTime: EventTime.seconds, log: log.log)
    }

    @Test func noReaderIsNotAnError() throws {
        let sink = try makeSink()
        sink.deliver(change(.regular, from: nil, at: 1))
        for tick in 0..<20 { sink.poll(now: Double(tick) / 10) }
        sink.deliver(change(.invert, from: .regular, at: 3))
        #expect(!sink.isConnected)
        #expect(log.messages.isEmpty)
        #expect(fileMode(directory.file("state")).map { $0 & S_IFMT } == S_IFIFO)
    }

    @Test func lateReaderGetsTheCurrentStateFirst() throws {
        let sink = try makeSink()
        sink.deliver(change(.regular, from: nil, at: 1))
        sink.deliver(change(.invert, from: .regular, at: 7))
        sink.poll(now: 8)

        let reader = try PipeReader(directory.file("state"))
        defer { reader.close() }
        #expect(reader.lines().isEmpty)
        sink.poll(now: 8.1)
        #expect(
            reader.lines() == [
                #"{"event":"current","state":"invert","previous":"regular","animated":false,"reason":"light","lux":100,"filtered":100,"time":7,"override":null,"override_remaining_s":null,"fault":false,"brightness":null}"#
            ])

        sink.deliver(change(.contrast, from: .invert, at: 20))
        #expect(
            reader.lines().compactMap(ParsedLine.init) == [
                ParsedLine(#"{"event":"change","state":"contrast","animated":true}"#)!
            ])
    }

    @Test func readerBeforeTheFirstEventGetsEveryEvent() throws {
        let sink = try makeSink()
        let reader = try PipeReader(directory.file("state"))
        defer { reader.close() }
        sink.poll(now: 0)
        #expect(sink.isConnected)
        #expect(reader.lines().isEmpty)
        sink.deliver(change(.regular, from: nil, at: 1))
        sink.deliver(change(.contrast, from: .regular, at: 9))
        #expect(reader.lines().compactMap(ParsedLine.init).map(\.state) == ["regular", "contrast"])
    }

    @Test func readerLeavingMidStreamIsSurvived() throws {
        let sink = try makeSink()
        let first = try PipeReader(directory.file("state"))
        sink.poll(now: 0)
        sink.deliver(change(.regular, from: nil, at: 1))
        #expect(first.lines().count == 1)
        first.close()

        // The next write meets EPIPE; SIGPIPE would end this test process if it were not ignored.
        sink.deliver(change(.invert, from: .regular, at: 2))
        sink.deliver(change(.regular, from: .invert, at: 8))
        #expect(!sink.isConnected)
        #expect(log.messages.isEmpty)

        let second = try PipeReader(directory.file("state"))
        defer { second.close() }
        sink.poll(now: 9)
        #expect(
            second.lines().compactMap(ParsedLine.init).map { "\($0.event) \($0.state)" } == [
                "current regular"
            ])
    }

    @Test func aLineLeftHalfReadNeverReachesTheNextReader() throws {
        let sink = try makeSink()
        let first = try PipeReader(directory.file("state"))
        sink.poll(now: 0)
        sink.deliver(change(.regular, from: nil, at: 1))
        sink.deliver(change(.contrast, from: .regular, at: 7))
        #expect(first.readBytes(10).count == 10)
        first.close()
        sink.poll(now: 7.1)  // the tick after it left

        let second = try PipeReader(directory.file("state"))
        defer { second.close() }
        sink.poll(now: 7.2)
        let lines = second.lines()
        #expect(lines.count == 1)
        #expect(lines.allSatisfy { ParsedLine($0) != nil })
        #expect(ParsedLine(lines[0])?.event == "current")
        #expect(!second.hasPartialLine)
    }

    @Test func aReaderReplacingAnotherBetweenTicksStillGetsCurrent() throws {
        let sink = try makeSink()
        let first = try PipeReader(directory.file("state"))
        sink.poll(now: 0)
        sink.deliver(change(.invert, from: nil, at: 1))
        #expect(first.lines().count == 1)
        first.close()
        let second = try PipeReader(directory.file("state"))
        defer { second.close() }
        #expect(second.lines().isEmpty)

        sink.poll(now: 1.1)
        #expect(
            second.lines().compactMap(ParsedLine.init).map { "\($0.event) \($0.state)" } == ["current invert"]
        )
    }

    /// A reader blocked in open(2) is woken by our open, and its own open event comes after
    /// ours: that late event must not send it `current` a second time.
    @Test func theConnectedReadersOwnLateOpenDoesNotRepeatCurrent() throws {
        let sink = try makeSink()
        sink.deliver(change(.regular, from: nil, at: 1))
        let reader = try PipeReader(directory.file("state"))
        defer { reader.close() }
        sink.poll(now: 2)
        #expect(reader.lines().compactMap(ParsedLine.init).map(\.event) == ["current"])
        // The same open event, arriving after the connection: another open of the read end.
        let late = try FileDescriptor.open(directory.file("state"), O_RDONLY | O_NONBLOCK)
        sink.poll(now: 3)
        sink.poll(now: 4)
        #expect(reader.lines().isEmpty)
        late.close()
    }

    @Test func manyReadersInTurnEachStartWithCurrent() throws {
        let sink = try makeSink()
        var state = AmbienceState.regular
        sink.deliver(change(state, from: nil, at: 0))
        for round in 1...40 {
            let reader = try PipeReader(directory.file("state"))
            sink.poll(now: Double(round))
            let next = AmbienceState.allCases[round % 3]
            sink.deliver(change(next, from: state, at: Double(round) + 0.5))
            let lines = reader.lines().map { ParsedLine($0) }
            #expect(
                lines == [
                    ParsedLine(#"{"event":"current","state":"\#(state)","animated":false}"#),
                    ParsedLine(#"{"event":"change","state":"\#(next)","animated":true}"#),
                ])
            state = next
            if round % 2 == 1 {
                // This one leaves in the middle of a line.
                let another = AmbienceState.allCases[(round + 1) % 3]
                sink.deliver(change(another, from: state, at: Double(round) + 0.6))
                state = another
                #expect(reader.readBytes(5).count == 5)
            }
            reader.close()
            sink.poll(now: Double(round) + 0.7)
        }
        #expect(log.messages.isEmpty)
    }

    /// The reader that stops reading: the pipe fills, lines are dropped, every call returns,
    /// and once the reader drains the pipe the last line it sees is the latest state. How long
    /// a call takes meanwhile is `make bench`'s figure (g), not asserted here: a loaded machine
    /// would make any bound flaky.
    @Test func aStoppedReaderNeverStallsTheLoopAndEndsOnTheLatestState() throws {
        let sink = try makeSink()
        let reader = try PipeReader(directory.file("state"))
        defer { reader.close() }
        sink.poll(now: 0)

        var previous: AmbienceState?
        var latest = AmbienceState.regular
        let events = 3000
        for index in 0..<events {
            latest = AmbienceState.allCases[(index * 7 + index / 5) % 3]
            let event = change(latest, from: previous, at: Double(index))
            previous = latest
            sink.deliver(event)
            sink.poll(now: Double(index))
        }

        var lines = reader.lines()
        #expect(lines.count < events)  // the pipe did fill up
        sink.poll(now: Double(events))
        lines += reader.lines()
        #expect(lines.allSatisfy { ParsedLine($0) != nil })
        #expect(
            ParsedLine(lines.last!)
                == ParsedLine(#"{"event":"current","state":"\#(latest)","animated":false}"#))
        #expect(log.messages.isEmpty)
    }

    @Test func aNewReadersCurrentLineSaysTheFaultAndTheOverridesTimeLeftNow() throws {
        let sink = try makeSink()
        var held = change(.invert, from: .regular, at: 1, reason: .override)
        held.override = .invert
        held.overrideUntil = 601
        sink.deliver(held)
        var faultNow = fault(holding: .invert, at: 6)
        faultNow.faulted = true
        sink.deliver(faultNow)
        let reader = try PipeReader(directory.file("state"))
        defer { reader.close() }
        sink.poll(now: 101)
        let current = reader.lines().first ?? ""
        #expect(current.hasPrefix(#"{"event":"current","#))
        #expect(
            current.hasSuffix(
                #","override":"invert","override_remaining_s":500,"fault":true,"brightness":null}"#))
    }

    @Test func aNewReaderIsToldOfAFaultThatHolds() throws {
        let sink = try makeSink()
        sink.deliver(change(.regular, from: nil, at: 1))
        sink.deliver(fault(holding: .regular, at: 6))
        let reader = try PipeReader(directory.file("state"))
        sink.poll(now: 7)
        #expect(reader.lines().compactMap(ParsedLine.init).map(\.event) == ["current", "fault"])
        reader.close()

        sink.deliver(recovered(holding: .regular, at: 8))
        let next = try PipeReader(directory.file("state"))
        defer { next.close() }
        sink.poll(now: 9)
        #expect(next.lines().compactMap(ParsedLine.init).map(\.event) == ["current"])
    }

    @Test func plainFormatWritesStateWordsOnly() throws {
        let sink = try makeSink(format: .plain)
        sink.deliver(change(.regular, from: nil, at: 1))
        let reader = try PipeReader(directory.file("state"))
        defer { reader.close() }
        sink.poll(now: 2)
        sink.deliver(fault(holding: .regular, at: 3))
        sink.deliver(recovered(holding: .regular, at: 4))
        sink.deliver(change(.contrast, from: .regular, at: 9))
        #expect(reader.lines() == ["regular", "contrast"])
    }

    @Test func severalPipesEachGetTheirLines() throws {
        let json = try makeSink(name: "json")
        let plain = try makeSink(format: .plain, name: "plain")
        let jsonReader = try PipeReader(directory.file("json"))
        let plainReader = try PipeReader(directory.file("plain"))
        defer {
            jsonReader.close()
            plainReader.close()
        }
        for sink in [json, plain] { sink.poll(now: 0) }
        for sink in [json, plain] { sink.deliver(change(.invert, from: nil, at: 1)) }
        #expect(jsonReader.lines().compactMap(ParsedLine.init).map(\.state) == ["invert"])
        #expect(plainReader.lines() == ["invert"])
    }

    @Test func refusesARegularFileAndLeavesItAlone() throws {
        let path = directory.file("state")
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT, mode: 0o600)
        try file.writeAll("precious\n")
        file.close()
        #expect(throws: OutputError.notAFIFO(path: path, found: "a regular file")) { try makeSink() }
        #expect(contents(path) == "precious\n")
    }

    @Test func refusesASymbolicLinkAndNeverFollowsIt() throws {
        let target = directory.file("target")
        mkfifo(target, 0o600)
        let path = directory.file("state")
        symlink(target, path)
        #expect(throws: OutputError.notAFIFO(path: path, found: "a symbolic link")) { try makeSink() }
        #expect(fileMode(path).map { $0 & S_IFMT } == S_IFLNK)
        #expect(fileMode(target) == S_IFIFO | 0o600)
    }

    @Test func createsParentDirectoriesAndSetsTheModeWhateverTheUmask() throws {
        let path = directory.file("run/ambience/state")
        let saved = umask(0o077)
        defer { umask(saved) }
        let sink = try NamedPipeSink(
            .init(path: path, mode: 0o640), renderTime: EventTime.seconds, log: log.log)
        defer { sink.close() }
        #expect(fileMode(path) == S_IFIFO | 0o640)
    }

    @Test func anExistingPipeIsKeptAndGetsTheConfiguredMode() throws {
        let path = directory.file("state")
        mkfifo(path, 0o600)
        _ = try makeSink()
        #expect(fileMode(path) == S_IFIFO | 0o660)
    }

    @Test(.enabled(if: getuid() == 0, "changing a file's group to any group needs root"))
    func setsTheConfiguredGroup() throws {
        let path = directory.file("state")
        let group = getgid() == 1 ? "2" : "1"
        _ = try NamedPipeSink(.init(path: path, group: group), renderTime: EventTime.seconds, log: log.log)
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_gid == gid_t(group)!)
    }

    @Test func anUnknownGroupIsAConfigurationErrorNamingTheField() throws {
        let configuration = NamedPipeSink.Configuration(
            path: directory.file("state"), group: "no-such-group-ambience")
        #expect(
            throws: OutputError.configuration(
                ConfigurationError(
                    key: "group", message: "no group named 'no-such-group-ambience'"))
        ) {
            try NamedPipeSink(configuration, renderTime: EventTime.seconds, log: log.log)
        }
    }

    @Test func aPipeRemovedWhileRunningIsMadeAgain() throws {
        let path = directory.file("state")
        let sink = try makeSink()
        sink.deliver(change(.contrast, from: nil, at: 1))
        unlink(path)
        sink.poll(now: 2)
        #expect(fileMode(path) == S_IFIFO | 0o660)
        #expect(log.messages.count == 1)

        let reader = try PipeReader(path)
        defer { reader.close() }
        sink.poll(now: 2.1)
        #expect(
            reader.lines().compactMap(ParsedLine.init).map { "\($0.event) \($0.state)" } == [
                "current contrast"
            ])
    }

    @Test func aPipeReplacedByAFileAfterStartIsNotWrittenAndReportedOnce() throws {
        let path = directory.file("state")
        let sink = try makeSink()
        sink.deliver(change(.regular, from: nil, at: 1))
        unlink(path)
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT, mode: 0o600)
        try file.writeAll("precious\n")
        file.close()
        for tick in 0..<30 { sink.poll(now: Double(tick)) }
        #expect(contents(path) == "precious\n")
        #expect(log.messages.count == 1)
        #expect(log.messages.first?.contains("no longer a named pipe") == true)
    }
}
