import AmbienceClient
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Real named pipes in a temporary directory. Every wait is bounded: a follower that misses
/// what it should see makes the test fail after a few seconds, never hang.
@Suite struct PipeFollowerTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("state") }

    @Test func aPipeMadeAgainAfterItsWriterLeftIsFollowed() throws {
        #expect(mkfifo(path, 0o600) == 0)
        let follower = PipeFollower(path: path, recheckInterval: 60)
        var seen = Seen(follower)
        try seen.until { $0.opens == 1 }
        try seen.write("{\"state\":\"invert\"}\n", to: path)
        try seen.until { $0.text.contains("invert") && $0.closes == 1 }

        // As when systemd removes the runtime directory's contents and the daemon starts again.
        #expect(unlink(path) == 0)
        #expect(mkfifo(path, 0o600) == 0)
        try seen.write("{\"state\":\"contrast\"}\n", to: path)
        try seen.until { $0.text.contains("contrast") }
    }

    @Test func aPipeNoWriterOpenedIsReplacedPromptly() throws {
        #expect(mkfifo(path, 0o600) == 0)
        // An hour between periodic checks: only inotify can tell of the new pipe in time.
        let follower = PipeFollower(path: path, recheckInterval: 3600)
        var seen = Seen(follower)
        try seen.until { $0.opens == 1 }
        #expect(unlink(path) == 0)
        #expect(mkfifo(path, 0o600) == 0)
        try seen.write("regular\n", to: path)
        try seen.until { $0.text == "regular\n" }
        #expect(seen.opens == 2)
    }

    @Test func aPipeRenamedOverThePathIsFollowed() throws {
        #expect(mkfifo(path, 0o600) == 0)
        let follower = PipeFollower(path: path, recheckInterval: 3600)
        var seen = Seen(follower)
        try seen.until { $0.opens == 1 }
        #expect(mkfifo(directory.file("new"), 0o600) == 0)
        #expect(rename(directory.file("new"), path) == 0)
        try seen.write("invert\n", to: path)
        try seen.until { $0.text == "invert\n" }
    }

    @Test func aMissingPathIsWaitedForQuietlyAndFollowedWhenItAppears() throws {
        // The directory is missing too, so only the periodic check can find the pipe.
        let path = directory.file("run/state")
        let follower = PipeFollower(path: path, recheckInterval: 0.05)
        #expect(try follower.next(timeout: 1) == .missing)
        let waited = try quietPeriod(follower, seconds: 0.5)
        #expect(waited.events.isEmpty)  // said once, not at each check
        #expect(waited.wakeUps <= 15)  // one per check (0.05 s) and a few to spare
        #expect(mkdir(directory.file("run"), 0o700) == 0)
        #expect(mkfifo(path, 0o600) == 0)
        var seen = Seen(follower)
        try seen.write("contrast\n", to: path)
        try seen.until { $0.text == "contrast\n" }
    }

    @Test func aPipeMadeInTheWatchedDirectoryIsFoundAtOnce() throws {
        let follower = PipeFollower(path: path, recheckInterval: 3600)
        #expect(try follower.next(timeout: 1) == .missing)
        #expect(mkfifo(path, 0o600) == 0)
        var seen = Seen(follower)
        try seen.write("invert\n", to: path)
        try seen.until { $0.text == "invert\n" }
    }

    @Test func aWriterLeavingDoesNotMakeItSpin() throws {
        #expect(mkfifo(path, 0o600) == 0)
        let follower = PipeFollower(path: path, recheckInterval: 0.1)
        var seen = Seen(follower)
        try seen.until { $0.opens == 1 }
        try seen.write("invert\n", to: path)
        try seen.until { $0.closes == 1 }
        // The writer is gone for good: the pipe is reopened once, then waited on quietly,
        // waking for the periodic check only.
        let quiet = try quietPeriod(follower, seconds: 1)
        #expect(quiet.events.filter { $0 == .closed }.count <= 1)
        #expect(quiet.events.filter { $0 == .opened }.count <= 1)
        #expect(quiet.wakeUps <= 15)  // one per check (0.1 s) and a few to spare
    }

    @Test func aPathThatIsNotANamedPipeIsRefused() throws {
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT, mode: 0o600)
        file.close()
        let follower = PipeFollower(path: path)
        #expect(throws: PipeFollower.Failure.notAFIFO(path: path)) { try follower.next(timeout: 1) }
    }
}

/// The events of a follower so far, and a writer that waits (boundedly) for it to be reading.
private struct Seen {
    let follower: PipeFollower
    var events: [PipeFollower.Event] = []

    init(_ follower: PipeFollower) { self.follower = follower }

    var opens: Int { events.filter { $0 == .opened }.count }
    var closes: Int { events.filter { $0 == .closed }.count }
    var text: String {
        String(
            decoding: events.flatMap { event -> [UInt8] in
                if case .data(let bytes) = event { return bytes }
                return []
            }, as: UTF8.self)
    }

    /// Takes events until `done` holds; fails after a few seconds without.
    mutating func until(_ done: (Seen) -> Bool) throws {
        let clock = SystemClock()
        let deadline = clock.now + 5
        while !done(self) {
            guard clock.now < deadline else {
                Issue.record("gave up waiting; events: \(events)")
                throw Timeout()
            }
            let event = try follower.next(timeout: 0.05)
            if event != .timedOut { events.append(event) }
        }
    }

    /// Opens the pipe as the daemon does (without blocking, which fails until a reader is
    /// there), writes and closes.
    mutating func write(_ text: String, to path: String) throws {
        var writer: FileDescriptor?
        try until { _ in
            writer = try? FileDescriptor.open(path, O_WRONLY | O_NONBLOCK)
            return writer != nil
        }
        defer { writer?.close() }
        try writer?.writeAll(text)
    }
}

private struct Timeout: Error {}

/// The events (but time-outs) and wake-ups of a follower over `seconds`.
private func quietPeriod(_ follower: PipeFollower, seconds: Double) throws -> (
    events: [PipeFollower.Event], wakeUps: Int
) {
    let clock = SystemClock()
    let end = clock.now + seconds
    let before = follower.wakeUps
    var events: [PipeFollower.Event] = []
    while clock.now < end {
        let event = try follower.next(timeout: max(0, end - clock.now))
        if event != .timedOut { events.append(event) }
        // A spinning follower would return at once again and again: stop counting early.
        if events.count > 100 { break }
    }
    return (events, follower.wakeUps - before)
}
