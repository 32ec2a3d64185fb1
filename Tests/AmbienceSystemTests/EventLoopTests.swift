import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A source that records what it was served and asks for what it is told to.
final class RecordingSource: EventSource {
    let name: String
    let clock: ManualClock
    var interest: Interest
    var served: [(time: Double, wake: Wake)] = []
    /// What the source does when served, after recording it.
    var onServe: (Wake) -> Void = { _ in }

    init(_ name: String, clock: ManualClock, interest: Interest = Interest()) {
        self.name = name
        self.clock = clock
        self.interest = interest
    }

    func serve(_ wake: Wake) {
        served.append((clock.now, wake))
        onServe(wake)
    }
}

@Suite struct EventLoopTests {
    let clock = ManualClock(now: 100)

    @Test func everySourceIsServedEveryWakeStartingBeforeTheFirstWait() {
        let input = FileDescriptor(rawValue: 7)
        let waiter = ScriptedWaiter(clock: clock, script: [(101, .readable(input)), (102, .signal(SIGTERM))])
        let loop = EventLoop(waiter: waiter)
        let first = RecordingSource("first", clock: clock, interest: Interest(reading: [input]))
        let second = RecordingSource("second", clock: clock)
        first.onServe = { if case .signal = $0 { loop.stop() } }
        loop.add(first)
        loop.add(second)
        loop.run()
        let expected: [Wake] = [.deadline, .readable(input), .signal(SIGTERM)]
        #expect(first.served.map(\.wake) == expected)
        #expect(second.served.map(\.wake) == expected)
        // The wake that stopped the loop reached the source after the one that stopped it, and
        // no wait came after it.
        #expect(waiter.waits == 2)
    }

    @Test func theWaitIsForTheEarliestDeadlineAndEveryDescriptorAsked() {
        let waiter = ScriptedWaiter(clock: clock, script: [(100.5, .signal(SIGINT))])
        let loop = EventLoop(waiter: waiter)
        let (a, b, c) = (
            FileDescriptor(rawValue: 3), FileDescriptor(rawValue: 4), FileDescriptor(rawValue: 5)
        )
        let early = RecordingSource("early", clock: clock, interest: Interest(reading: [a], deadline: 103))
        let late = RecordingSource(
            "late", clock: clock, interest: Interest(reading: [b], writing: [c], deadline: 107))
        late.onServe = { if case .signal = $0 { loop.stop() } }
        loop.add(early)
        loop.add(late)
        loop.run()
        #expect(waiter.asked.count == 1)
        #expect(waiter.asked.first?.deadline == 103)
        #expect(waiter.asked.first?.reading == [a, b])
        #expect(waiter.asked.first?.writing == [c])
    }

    @Test func withNothingDueTheLoopWaitsForAWakeWithoutEnd() {
        let waiter = ScriptedWaiter(clock: clock, script: [(5000, .signal(SIGTERM))])
        let loop = EventLoop(waiter: waiter)
        let source = RecordingSource("idle", clock: clock)
        source.onServe = { if case .signal = $0 { loop.stop() } }
        loop.add(source)
        loop.run()
        #expect(waiter.asked.map(\.deadline) == [.infinity])
        #expect(source.served.last?.time == 5000)
    }

    @Test func aSourceRemovedDuringATurnIsServedNoMore() {
        let waiter = ScriptedWaiter(clock: clock, script: [])
        let loop = EventLoop(waiter: waiter)
        let stays = RecordingSource("stays", clock: clock, interest: Interest(deadline: 101))
        let leaves = RecordingSource("leaves", clock: clock, interest: Interest(deadline: 100.5))
        stays.onServe = { _ in
            if stays.served.count == 2 { loop.remove(leaves) }
            if stays.served.count == 4 { loop.stop() }
        }
        loop.add(stays)
        loop.add(leaves)
        loop.run()
        // Removed by the first source in the second turn: served in the first turn only.
        #expect(leaves.served.count == 1)
        #expect(stays.served.count == 4)
        // Its deadline no longer counts: the waits after are for the one left.
        #expect(waiter.asked.map(\.deadline) == [100.5, 101, 101])
    }

    @Test func aStoppedLoopRunsAgainWithTheSourcesItHas() {
        let waiter = ScriptedWaiter(clock: clock, script: [])
        let loop = EventLoop(waiter: waiter)
        let source = RecordingSource("phases", clock: clock, interest: Interest(deadline: 101))
        source.onServe = { _ in if source.served.count == 2 || source.served.count == 3 { loop.stop() } }
        loop.add(source)
        loop.run()
        #expect(source.served.count == 2)
        loop.run()
        // A new run begins with a turn before its first wait.
        #expect(source.served.count == 3)
        #expect(source.served.last?.wake == .deadline)
        #expect(waiter.waits == 1)
    }

    @Test func anInputAtItsEndIsWatchedNoMore() throws {
        let ends = try FileDescriptor.makePipe()
        defer { ends.read.close() }
        ends.write.close()  // the writer is gone: poll would report the read end for ever
        let waiter = ScriptedWaiter(clock: clock, script: [(101, .readable(ends.read))])
        let loop = EventLoop(waiter: waiter)
        var reads = 0
        let input = InputSource(ends.read) {
            reads += 1
            var byte: UInt8 = 0
            return read(ends.read.rawValue, &byte, 1) > 0
        }
        let timer = RecordingSource("timer", clock: clock, interest: Interest(deadline: 102))
        timer.onServe = { _ in if timer.served.count == 3 { loop.stop() } }
        loop.add(input)
        loop.add(timer)
        loop.run()
        #expect(reads == 1)
        #expect(waiter.asked.map(\.reading) == [[ends.read], []])
    }
}
