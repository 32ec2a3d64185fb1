import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceI2C
import AmbienceOutputs
import AmbienceSimulation
import AmbienceSystem
import Testing

/// The DDC/CI driver against the emulated monitor, in simulated time: the daemon's loop is
/// played by `drive`, which calls `poll` when it asks to be called and on every tick.
final class DDCMonitorRig {
    let clock = ManualClock(now: 100)
    let bus: MockI2CBus
    let emulator: DDCMonitorEmulator
    let monitor: DDCMonitor
    /// The most transfers any one call made.
    var mostTransfersInOneCall = 0

    static let display = I2CAddress(rawValue: DDCCI.displayAddress)
    static let edid = I2CAddress(rawValue: DDCCI.edidAddress)

    init(maximum: UInt16 = 100, brightness: UInt16 = 50) {
        bus = MockI2CBus(clock: clock)
        emulator = DDCMonitorEmulator.attach(to: bus, maximum: maximum, brightness: brightness)
        let lines = LogLines()
        monitor = DDCMonitor(bus: bus, name: "ddc:mock (0x37)", log: { lines.lines.append($0) })
        logLines = lines
    }

    private let logLines: LogLines
    var logged: [String] { logLines.lines }

    final class LogLines {
        var lines: [String] = []
    }

    var transfers: Int { bus.transferCounts[Self.display, default: 0] }

    func set(_ percent: Int) {
        measured { monitor.set(percent: percent, now: clock.now) }
    }

    /// One call at `time`, the clock moved there first.
    func poll(at time: Double) -> Double? {
        clock.advance(by: time - clock.now)
        return monitor.poll(now: time)
    }

    /// Plays the daemon's loop until `end`: a call when the monitor asked for one, and one on
    /// every whole second (the loop's tick) besides.
    func drive(until end: Double) {
        var next = monitor.poll(now: clock.now)
        while clock.now < end {
            let tick = (clock.now + 1).rounded(.down)
            let wake = min(next ?? tick, tick, end)
            clock.advance(by: max(wake - clock.now, 0))
            measured { next = monitor.poll(now: clock.now) }
        }
    }

    private func measured(_ body: () -> Void) {
        let before = transfers
        body()
        mostTransfersInOneCall = max(mostTransfersInOneCall, transfers - before)
    }
}

struct DDCMonitorTests {
    @Test func readsTheMaximumFirstThenWritesTheWishMappedToIt() {
        let rig = DDCMonitorRig(maximum: 200, brightness: 150)
        rig.set(40)
        #expect(rig.emulator.getRequestCount == 1)
        // The reply is read 40 ms after the request, the Set 50 ms after the reply.
        #expect(rig.poll(at: 100.01) == 100.04)
        #expect(rig.poll(at: 100.04) == 100.09)
        #expect(rig.monitor.maximum == 200)
        #expect(rig.poll(at: 100.09) == nil)
        #expect(rig.emulator.brightness == 80)
        #expect(rig.emulator.setRequests.map(\.time) == [100.09])
        #expect(rig.emulator.protocolViolations.isEmpty)
        #expect(rig.logged.isEmpty)
    }

    @Test func readsTheMaximumAtStartEvenWithNoWish() {
        let rig = DDCMonitorRig()
        rig.drive(until: 101)
        #expect(rig.monitor.maximum == 100)
        #expect(rig.emulator.setRequests.isEmpty)
        #expect(rig.monitor.poll(now: 101) == nil)
    }

    @Test func atMostOneWriteASecondAndOnlyTheLatestWish() {
        let rig = DDCMonitorRig()
        rig.set(10)
        rig.drive(until: 100.5)
        for (index, percent) in [20, 30, 40, 50, 60].enumerated() {
            rig.clock.advance(by: 0.1)
            rig.set(percent)
            #expect(rig.emulator.setRequests.count == 1, "wish \(index) waits for the second to pass")
        }
        rig.drive(until: 104)
        #expect(rig.emulator.setRequests.map(\.value) == [10, 60])
        #expect(rig.emulator.setRequests[1].time - rig.emulator.setRequests[0].time >= 1)
        #expect(rig.emulator.brightness == 60)
        #expect(rig.emulator.protocolViolations.isEmpty)
    }

    @Test func aSteadyRampIsSentOnceASecond() {
        let rig = DDCMonitorRig()
        for step in 0..<100 {
            rig.set(step)
            rig.drive(until: 100 + Double(step + 1) * 0.1)
        }
        rig.drive(until: 112)
        let times = rig.emulator.setRequests.map(\.time)
        #expect(times.count <= 12)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 1 - 1e-9 })
        #expect(rig.emulator.brightness == 99)
        #expect(rig.mostTransfersInOneCall <= 1)
        #expect(rig.emulator.protocolViolations.isEmpty)
    }

    @Test func anUnpluggedMonitorIsOneFaultRetriedOnceASecondThenRecovered() {
        let rig = DDCMonitorRig()
        rig.set(30)
        rig.drive(until: 101)
        rig.bus.unplug(DDCMonitorRig.display)
        rig.emulator.brightnessAtPowerOn = 90
        rig.set(70)
        let transfersBefore = rig.transfers
        rig.drive(until: 110)
        #expect(rig.logged.count == 1)
        #expect(rig.logged.first?.hasPrefix("ddc:mock (0x37): ") == true)
        #expect(rig.logged.first?.contains("no acknowledge at 0x37: the monitor is off") == true)
        #expect(rig.monitor.fault != nil)
        // A failed Set, then a Get each second at most.
        #expect(rig.transfers - transfersBefore <= 11)
        rig.bus.replug(DDCMonitorRig.display)
        rig.drive(until: 112)
        #expect(rig.logged.count == 2)
        #expect(rig.logged.last?.contains("recovered") == true)
        #expect(rig.monitor.fault == nil)
        // The monitor came back at 90: the latest wish is sent again.
        #expect(rig.emulator.brightness == 70)
        #expect(rig.emulator.protocolViolations.isEmpty)
        #expect(rig.mostTransfersInOneCall <= 1)
    }

    @Test func aBadChecksumIsAFaultAndTheNextGoodReplyEndsIt() {
        let rig = DDCMonitorRig(maximum: 100, brightness: 20)
        rig.emulator.corruptedReplies = 2
        rig.set(50)
        rig.drive(until: 101.5)
        #expect(rig.logged.count == 1)
        #expect(rig.logged.first?.contains("bad checksum") == true)
        #expect(rig.emulator.brightness == 20)
        rig.drive(until: 104)
        #expect(rig.logged.count == 2)
        #expect(rig.emulator.brightness == 50)
        #expect(rig.emulator.getRequestCount == 3)
    }

    @Test func theNullMessageIsAFaultThatRecovers() {
        let rig = DDCMonitorRig()
        rig.emulator.nullReplies = 1
        rig.set(80)
        rig.drive(until: 103)
        #expect(rig.logged.count == 2)
        #expect(rig.logged.first?.contains("null message") == true)
        #expect(rig.emulator.brightness == 80)
    }

    @Test func closeLeavesTheMonitorAsItIsAndStopsEverything() {
        let rig = DDCMonitorRig(maximum: 100, brightness: 33)
        rig.set(90)
        rig.monitor.close()
        rig.monitor.close()
        #expect(rig.monitor.poll(now: 105) == nil)
        rig.monitor.set(percent: 10, now: 106)
        #expect(rig.emulator.brightness == 33)
        #expect(rig.emulator.setRequests.isEmpty)
    }

    @Test func percentMapsToTheNearestRawValue() {
        #expect(DDCMonitor.raw(percent: 50, maximum: 255) == 128)
        #expect(DDCMonitor.raw(percent: 0, maximum: 255) == 0)
        #expect(DDCMonitor.raw(percent: 100, maximum: 255) == 255)
        #expect(DDCMonitor.raw(percent: 150, maximum: 100) == 100)
        #expect(DDCMonitor.raw(percent: -5, maximum: 100) == 0)
    }

    @Test func byBusSelectorItOpensTheBusAtOnceAndReopensAfterAFailure() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let emulator = DDCMonitorEmulator.attach(to: bus)
        var opened = 0
        let open: ReopeningI2CBus.Open = { _ throws(I2CError) in
            opened += 1
            return bus
        }
        let monitor = try DDCMonitor(.number(20), log: { _ in }, open: open)
        #expect(monitor.name == "ddc:20 (0x37)")
        #expect(opened == 1)
        bus.injectFault(.ioError, at: DDCMonitorRig.display)
        monitor.set(percent: 20, now: clock.now)
        #expect(monitor.fault != nil)
        clock.advance(by: 1)
        #expect(monitor.poll(now: clock.now) == clock.now + DDCCI.replyDelay)
        #expect(opened == 2)
        clock.advance(by: DDCCI.replyDelay)
        _ = monitor.poll(now: clock.now)
        clock.advance(by: DDCCI.messageDelay)
        #expect(monitor.poll(now: clock.now) == nil)
        #expect(emulator.brightness == 20)
        #expect(throws: I2CError.self) {
            let missing: ReopeningI2CBus.Open = { _ throws(I2CError) in
                throw I2CError(.busMissing, bus: "/dev/i2c-21")
            }
            _ = try DDCMonitor(.number(21), log: { _ in }, open: missing)
        }
    }

    @Test func namesTheBusAsItWasGiven() {
        #expect(DDCMonitor.name(of: .number(1)) == "ddc:1 (0x37)")
        #expect(DDCMonitor.name(of: .name("DP-1")) == "ddc:DP-1 (0x37)")
    }
}

struct DDCMonitorEmulatorTests {
    @Test func flagsAReplyReadTooSoonAndMessagesTooClose() {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let emulator = DDCMonitorEmulator.attach(to: bus)
        try? bus.write(DDCCI.getRequest(DDCCI.brightness), to: DDCMonitorRig.display)
        clock.advance(by: 0.02)
        let reply = (try? bus.read(count: 11, from: DDCMonitorRig.display)) ?? []
        #expect(reply == DDCCI.getReply(DDCCI.FeatureValue(code: 0x10, maximum: 100, current: 50)))
        try? bus.write(DDCCI.setRequest(DDCCI.brightness, value: 10), to: DDCMonitorRig.display)
        #expect(emulator.protocolViolations.count == 2)
        // With no reply ready, a read gives the null message.
        clock.advance(by: 1)
        #expect((try? bus.read(count: 3, from: DDCMonitorRig.display)) == DDCCI.nullMessage)
    }

    @Test func answersItsEDIDAt0x50() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        DDCMonitorEmulator.attach(to: bus)
        let bytes = try bus.writeThenRead([0], readCount: EDID.length, address: DDCMonitorRig.edid)
        #expect(try EDID(decoding: bytes).monitorName == "Ambience DDC")
    }
}
