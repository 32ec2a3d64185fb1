import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceSimulation
import AmbienceSystem
import Testing

@testable import AmbienceOutputs

/// A CEC display and the emulated television on its bus, in simulated time.
final class CECRig {
    let television: EmulatedTelevision
    let display: CECDisplay
    private(set) var now = 100.0
    private let lines: Lines

    final class Lines { var all: [String] = [] }

    init(_ television: EmulatedTelevision = EmulatedTelevision()) {
        self.television = television
        let lines = Lines()
        display = CECDisplay(adapter: television, name: "cec0", log: { lines.all.append($0) })
        self.lines = lines
    }

    var logged: [String] { lines.all }

    /// Every message sent, as cec-ctl writes them.
    var sent: [String] { television.messages.map { CEC.describe($0) } }

    /// Asks `power` and plays the loop for `seconds`.
    func ask(_ power: DisplayPower, for seconds: Double) {
        display.set(power: power, now: now)
        run(for: seconds)
    }

    /// Plays the daemon's loop: a call when the display asked for one, and one every second (the
    /// loop's tick) besides.
    func run(for seconds: Double) {
        let end = now + seconds
        var due = display.poll(now: now)
        while now < end {
            let tick = now.rounded(.down) + 1
            now = min(end, due.map { min($0, tick) } ?? tick)
            due = display.poll(now: now)
        }
    }
}

struct CECDisplayTests {
    @Test func aTVThatIsOnAtStartIsAskedAndLeftAsItIs() {
        let rig = CECRig()
        rig.ask(.on, for: 12)
        // Asked at start and every five seconds; no Image View On, no Active Source: the TV is
        // not switched to this input because the daemon started.
        #expect(rig.sent == ["40:8F", "40:8F", "40:8F"])
        #expect(rig.display.power == .on)
        #expect(rig.television.shownInput == nil)
        #expect(rig.logged.isEmpty)
    }

    @Test func sleepIsStandbyToTheTVAndWakeIsImageViewOnThenActiveSource() {
        let rig = CECRig()
        rig.ask(.on, for: 1)
        rig.ask(.off, for: 3)
        #expect(rig.television.power == .off)
        #expect(rig.display.power == .off)
        #expect(rig.sent == ["40:8F", "40:36", "40:8F"])
        rig.ask(.on, for: 3)
        #expect(rig.television.power == .on)
        #expect(rig.television.shownInput == 0x1000)
        #expect(rig.sent.suffix(3) == ["40:04", "4F:82:10:00", "40:8F"])
        #expect(rig.display.power == .on)
    }

    @Test func theReportedPowerIsTheTVsAnswerNotTheWish() {
        let rig = CECRig()
        rig.ask(.on, for: 1)
        #expect(rig.display.power == .on)
        rig.ask(.off, for: 0)
        #expect(rig.display.power == nil)  // told, not yet asked again
        rig.run(for: 2)
        #expect(rig.display.power == .off)
        rig.television.power = .on  // someone's remote
        rig.run(for: 5)
        #expect(rig.display.power == .on)
        // Not sent again behind anyone's back: only a new wish sends it.
        #expect(rig.sent.filter { $0 == "40:36" }.count == 1)
        rig.ask(.off, for: 2)
        #expect(rig.sent.filter { $0 == "40:36" }.count == 2)
        #expect(rig.display.power == .off)
    }

    @Test func anAnswerAskedBeforeTheWishSaysNothing() {
        let rig = CECRig()
        rig.ask(.on, for: 4.5)
        let asked = rig.sent.count
        rig.television.holdsOutcomes = true
        rig.run(for: 1)  // the check at 5 s is on the bus, its answer (on) held
        #expect(rig.sent.count == asked + 1 && rig.sent.last == "40:8F")
        rig.display.set(power: .off, now: rig.now)
        // Not the old "on", nor the answer to come: the TV would seem to have woken itself.
        #expect(rig.display.power == nil)
        rig.television.holdsOutcomes = false
        _ = rig.display.poll(now: rig.now)
        #expect(rig.display.power == nil)
        rig.run(for: 2)
        #expect(rig.sent.filter { $0 == "40:36" }.count == 1)
        #expect(rig.display.power == .off)
    }

    @Test func aTVThatAnswersAsItWasForAWhileIsOnItsWayNotRefusing() {
        let television = EmulatedTelevision()
        television.answersLate = 3
        let rig = CECRig(television)
        rig.ask(.on, for: 1)
        rig.display.set(power: .off, now: rig.now)
        for _ in 0..<50 {
            rig.run(for: 0.1)
            #expect(rig.display.power != .on)  // the daemon would take it for a TV that woke itself
        }
        #expect(rig.display.power == .off)
        #expect(rig.sent.filter { $0 == "40:36" }.count == 1)
    }

    @Test func aTVThatStaysAsItWasAfterTheLimitIsBelieved() {
        let television = EmulatedTelevision()
        television.answersLate = 100
        let rig = CECRig(television)
        rig.ask(.on, for: 1)
        rig.ask(.off, for: CECDisplay.transitionLimit - 1)
        #expect(rig.display.power == nil)
        rig.run(for: 2)
        #expect(rig.display.power == .on)
    }

    @Test func aTVThatPullsHotPlugInStandbyIsWokenFromUnregistered() {
        let television = EmulatedTelevision()
        television.pullsHotPlugInStandby = true
        let rig = CECRig(television)
        rig.ask(.off, for: 7)
        // The port lost its addresses: asleep, and nothing more is asked of the TV.
        #expect(rig.sent == ["40:8F", "40:36"])
        #expect(rig.display.power == .off)
        rig.ask(.on, for: 7)
        // Active Source as soon as the port has its address back, then the checks.
        #expect(Array(rig.sent.dropFirst(2)) == ["F0:04", "4F:82:10:00", "40:8F", "40:8F"])
        #expect(rig.television.shownInput == 0x1000)
        #expect(rig.display.power == .on)
        #expect(rig.logged.isEmpty)
    }

    @Test func aTVThatNeverReportsItsPowerIsSaidOnceAndReportedAsTold() {
        let television = EmulatedTelevision()
        television.answersPowerStatus = false
        let rig = CECRig(television)
        rig.ask(.off, for: 12)
        #expect(rig.logged == ["display cec0: the TV does not report its power; it is reported as last told"])
        #expect(rig.sent == ["40:8F", "40:36"])  // told, since it cannot say; not asked again
        #expect(rig.display.power == .off)
        rig.ask(.on, for: 12)
        #expect(rig.sent.suffix(2) == ["40:04", "4F:82:10:00"])
        #expect(rig.display.power == .on)
        #expect(rig.logged.count == 1)
    }

    @Test func noTVIsOneFaultRetriedEverySecondAndTheWishIsSentOnceItAnswers() {
        let television = EmulatedTelevision(power: .on)
        television.acknowledges = false
        let rig = CECRig(television)
        rig.ask(.off, for: 5.5)
        #expect(rig.display.power == nil)
        #expect(
            rig.logged == [
                "display cec0: no TV acknowledges at logical address 0: it is unplugged, or has CEC switched off; retrying every second"
            ])
        #expect(rig.sent.count >= 5 && rig.sent.allSatisfy { $0 == "40:8F" })
        television.acknowledges = true
        rig.run(for: 3)
        #expect(rig.television.power == .off)
        #expect(rig.display.power == .off)
        #expect(rig.logged.last == "display cec0: answering again; on")
        #expect(rig.logged.count == 2)
    }

    @Test func closingWakesATVThatWasToldToWakeAndNotYetTold() {
        let television = EmulatedTelevision(power: .off)
        television.acknowledges = false
        let rig = CECRig(television)
        rig.ask(.off, for: 2)
        television.acknowledges = true
        rig.display.set(power: .on, now: rig.now)  // the stopping daemon's last wish, unsent
        rig.display.close()
        #expect(rig.sent.last == "40:04")
        #expect(rig.television.power == .on)
        #expect(rig.television.isClosed)
    }

    @Test func aStuckAdapterIsAFault() {
        let television = StuckTelevision()
        let display = CECDisplay(adapter: television, name: "cec1", log: { _ in })
        display.set(power: .off, now: 0)
        #expect(display.poll(now: 1) == 1 + 0.1)
        _ = display.poll(now: 5)
        #expect(display.poll(now: 5) == 6)
        #expect(television.transmitted == 1)
    }
}

/// An adapter whose messages never come back.
final class StuckTelevision: CECAdapter {
    var transmitted = 0
    func physicalAddress() throws(Errno) -> UInt16 { 0x1000 }
    func logicalAddress() throws(Errno) -> UInt8? { 4 }
    func transmit(_ message: [UInt8], reply: UInt8?) throws(Errno) -> UInt32 {
        transmitted += 1
        return UInt32(transmitted)
    }
    func receive() throws(Errno) -> CECOutcome? { nil }
    func close() {}
}
