import AmbienceCore
import AmbienceOutputs
import AmbienceSimulation
import Testing

/// The monitor's power mode (VCP 0xD6) against the emulated monitor and each of its quirks, in
/// simulated time.
struct DDCMonitorPowerTests {
    /// Asks `power` and plays the loop for `seconds`.
    func ask(_ rig: DDCMonitorRig, _ power: DisplayPower, for seconds: Double) {
        rig.monitor.set(power: power, now: rig.clock.now)
        rig.drive(until: rig.clock.now + seconds)
    }

    @Test func sleepIsStandbyAndWakeIsOnEachReadBack() {
        let rig = DDCMonitorRig()
        ask(rig, .off, for: 10)
        #expect(rig.emulator.powerSets.map(\.value) == [2])
        #expect(rig.emulator.powerMode == 2)
        #expect(rig.monitor.power == .off)
        #expect(rig.monitor.readWakes == false)
        ask(rig, .on, for: 3)
        #expect(rig.emulator.powerSets.map(\.value) == [2, 1])
        #expect(rig.monitor.power == .on)
        #expect(rig.emulator.protocolViolations.isEmpty)
        #expect(rig.logged.isEmpty)
    }

    @Test func theWishIsUnknownUntilReadBack() {
        let rig = DDCMonitorRig()
        rig.drive(until: 101)
        rig.monitor.set(power: .off, now: rig.clock.now)
        #expect(rig.monitor.power == nil)
        rig.drive(until: 101 + DDCMonitor.powerSettle + 0.2)
        #expect(rig.monitor.power == .off)
    }

    @Test func noBrightnessIsWrittenWhileItSleepsAndTheLatestIsAfter() {
        let rig = DDCMonitorRig()
        rig.set(30)
        rig.drive(until: 102)
        ask(rig, .off, for: 5)
        let sets = rig.emulator.setRequests.count
        for percent in [40, 50, 60] {
            rig.set(percent)
            rig.drive(until: rig.clock.now + 2)
        }
        #expect(rig.emulator.setRequests.count == sets)
        ask(rig, .on, for: 3)
        #expect(rig.emulator.brightness == 60)
    }

    @Test func aMonitorThatReadsStandbyForOffReadsAsleep() {
        let rig = DDCMonitorRig()
        rig.emulator.powerQuirk = .readsStandbyForOff
        rig.emulator.powerMode = 4  // its button put it off
        rig.drive(until: 101)
        rig.monitor.set(power: .off, now: rig.clock.now)
        rig.drive(until: 110)
        #expect(rig.monitor.power == .off)
    }

    @Test func aMonitorThatGoesDeafWhenOffStillWakesFromTheStandbyWritten() {
        let rig = DDCMonitorRig()
        rig.emulator.powerQuirk = .deafWhenOff
        ask(rig, .off, for: 10)
        #expect(rig.emulator.powerMode == 2)  // standby, not off: it still answers
        #expect(rig.monitor.power == .off)
        ask(rig, .on, for: 3)
        #expect(rig.emulator.powerMode == 1)
        #expect(rig.monitor.power == .on)
        #expect(rig.logged.isEmpty)
    }

    @Test func aMonitorThatAReadWakesIsPutBackAndNotReadWhileItSleeps() {
        let rig = DDCMonitorRig()
        rig.emulator.powerQuirk = .readWakes
        ask(rig, .off, for: 30)
        // Written, read (which woke it: it still read 2), read again (1), written again.
        #expect(rig.emulator.powerSets.map(\.value) == [2, 2])
        #expect(rig.emulator.powerMode == 2)
        #expect(rig.monitor.readWakes == true)
        #expect(rig.monitor.power == .off)
        #expect(rig.logged.count == 1)
        #expect(rig.logged.first?.contains("reading its power wakes this monitor") == true)
        // The next sleep is written and not read.
        ask(rig, .on, for: 3)
        #expect(rig.monitor.power == .on)
        let gets = rig.emulator.getRequestCount
        ask(rig, .off, for: 30)
        #expect(rig.emulator.getRequestCount == gets)
        #expect(rig.emulator.powerMode == 2)
        #expect(rig.monitor.power == .off)
    }

    @Test func aMonitorTurnedOnByItsButtonIsSeenAtTheNextCheck() {
        let rig = DDCMonitorRig()
        ask(rig, .off, for: 10)
        rig.emulator.powerMode = 1
        rig.drive(until: rig.clock.now + DDCMonitor.powerCheckInterval + 1)
        #expect(rig.monitor.power == .on)
    }

    @Test func anUnpluggedMonitorIsOneFaultAndTheWishIsWrittenWhenItIsBack() {
        let rig = DDCMonitorRig()
        ask(rig, .on, for: 3)
        rig.bus.unplug(DDCMonitorRig.display)
        ask(rig, .off, for: 5)
        #expect(rig.monitor.power == nil)
        #expect(rig.logged.count == 1)
        rig.bus.replug(DDCMonitorRig.display)
        rig.drive(until: rig.clock.now + 5)
        #expect(rig.emulator.powerMode == 2)
        #expect(rig.monitor.power == .off)
        #expect(rig.logged.last?.contains("recovered") == true)
    }

    @Test func closingAMonitorAskedToWakeWakesIt() {
        let rig = DDCMonitorRig()
        rig.drive(until: 101)
        rig.monitor.set(power: .off, now: rig.clock.now)
        rig.clock.advance(by: 0.1)
        rig.monitor.set(power: .on, now: rig.clock.now)  // within the second since the last Set: waits
        #expect(rig.emulator.powerMode == 2)
        rig.monitor.close()
        #expect(rig.emulator.powerMode == 1)
    }
}
