import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.serialized)
struct SignalWaiterTests {
    @Test func aSignalRaisedBeforeTheWaitIsDeliveredNotLost() throws {
        let waiter = try SignalWaiter(signals: [SIGUSR1])
        raise(SIGUSR1)  // blocked: it waits in the signalfd instead of killing the test process
        let clock = ManualClock(now: 0)
        #expect(waiter.wait(until: 1000, clock: clock) == .signal(SIGUSR1))
    }

    @Test func aPastDeadlineReturnsAtOnce() throws {
        let waiter = try SignalWaiter(signals: [SIGUSR2])
        #expect(waiter.wait(until: 5, clock: ManualClock(now: 10)) == .deadline)
    }

    @Test func readableInputWakesTheWait() throws {
        let waiter = try SignalWaiter(signals: [SIGUSR2])
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(write(ends[1], "x", 1) == 1)
        let input = FileDescriptor(rawValue: ends[0])
        #expect(
            waiter.wait(until: 1000, clock: ManualClock(now: 0), reading: [input]) == .readable(input))
    }

    @Test func aWritableDescriptorWakesTheWaitAfterTheReadableOnes() throws {
        let waiter = try SignalWaiter(signals: [SIGUSR2])
        let quiet = try FileDescriptor.makePipe()
        let other = try FileDescriptor.makePipe()
        defer {
            for end in [quiet.read, quiet.write, other.read, other.write] { end.close() }
        }
        // Nothing to read on either pipe; the writing ends have room.
        #expect(
            waiter.wait(
                until: 1000, clock: ManualClock(now: 0), reading: [quiet.read], writing: [other.write])
                == .writable(other.write))
        try other.write.writeAll("x")
        #expect(
            waiter.wait(
                until: 1000, clock: ManualClock(now: 0), reading: [quiet.read, other.read],
                writing: [quiet.write])
                == .readable(other.read))
    }

    @Test func aShortRealDeadlinePasses() throws {
        let waiter = try SignalWaiter(signals: [SIGUSR2])
        let clock = SystemClock()
        let deadline = clock.now + 0.01
        #expect(waiter.wait(until: deadline, clock: clock) == .deadline)
        #expect(clock.now >= deadline)
    }
}

struct ServiceNotifierTests {
    @Test func withoutNotifySocketItIsInactive() {
        let notifier = ServiceNotifier(environment: { _ in nil })
        #expect(!notifier.isActive)
        #expect(notifier.watchdogInterval == nil)
        notifier.notify("READY=1")  // harmless
    }

    /// As sd_watchdog_enabled(3): a positive WATCHDOG_USEC, and WATCHDOG_PID, when set, ours.
    @Test func theWatchdogIsOursOnlyWhenSystemdSaysSo() {
        let me = getpid()
        let cases: [([String: String], Double?)] = [
            (["WATCHDOG_USEC": "10000000"], 10),
            (["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": String(me)], 10),
            (["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": String(me + 1)], nil),
            (["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "x"], nil),
            (["WATCHDOG_USEC": "0"], nil),
            (["WATCHDOG_USEC": "-5"], nil),
            (["WATCHDOG_USEC": "ten"], nil),
            (["WATCHDOG_PID": String(me)], nil),
        ]
        for (environment, interval) in cases {
            let notifier = ServiceNotifier(environment: { environment[$0] }, processID: me)
            #expect(notifier.watchdogInterval == interval, "\(environment)")
        }
    }

    @Test func sendsDatagramsToTheNotifySocket() throws {
        let path = "/tmp/ambience-notify-test-\(getpid())"
        unlink(path)
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(receiver >= 0)
        defer {
            close(receiver)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(receiver, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        let environment = ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"]
        let notifier = ServiceNotifier(environment: { environment[$0] })
        #expect(notifier.isActive)
        #expect(notifier.watchdogInterval == 30)
        notifier.notify("READY=1\nSTATUS=regular")
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count > 0)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "READY=1\nSTATUS=regular")
    }
}
