import AmbienceCore
import AmbienceDisplayProtocols
import Testing

/// The byte sequences are worked out by hand from HDMI-CEC 1.4: the header is initiator then
/// destination, one nibble each; the opcodes are the standard's.
struct CECTests {
    @Test func standbyGoesToTheTVAlone() {
        #expect(CEC.standbyMessage(from: 4) == [0x40, 0x36])
    }

    @Test func imageViewOnMayComeFromUnregistered() {
        #expect(CEC.imageViewOnMessage(from: 4) == [0x40, 0x04])
        #expect(CEC.imageViewOnMessage(from: CEC.unregistered) == [0xF0, 0x04])
    }

    @Test func activeSourceIsBroadcastWithThePhysicalAddressHighByteFirst() {
        #expect(CEC.activeSourceMessage(from: 4, physicalAddress: 0x1200) == [0x4F, 0x82, 0x12, 0x00])
        #expect(CEC.activeSourceMessage(from: 8, physicalAddress: 0x2000) == [0x8F, 0x82, 0x20, 0x00])
    }

    @Test func powerStatusRequest() {
        #expect(CEC.powerStatusRequest(from: 4) == [0x40, 0x8F])
    }

    @Test(arguments: [
        ([UInt8(0x04), 0x90, 0x00], DisplayPower.on),
        ([0x04, 0x90, 0x01], .off),
        ([0x04, 0x90, 0x02], .on),
        ([0x04, 0x90, 0x03], .off),
    ])
    func aPowerReportIsWhereTheTVIsGoing(report: [UInt8], power: DisplayPower) {
        #expect(CEC.power(inReport: report) == power)
    }

    @Test(arguments: [
        [UInt8(0x04), 0x90, 0x04],  // no such status
        [0x04, 0x90],  // no operand
        [0x04, 0x90, 0x00, 0x00],
        [0x44, 0x90, 0x00],  // not from the TV
        [0x04, 0x00, 0x8F, 0x00],  // Feature Abort
    ])
    func anythingElseIsNoPower(report: [UInt8]) {
        #expect(CEC.power(inReport: report) == nil)
    }

    @Test func addressesAndMessagesAreWrittenAsCECCtlWritesThem() {
        #expect(CEC.describe(physicalAddress: 0x1000) == "1.0.0.0")
        #expect(CEC.describe(physicalAddress: 0x21A0) == "2.1.a.0")
        #expect(CEC.describe(physicalAddress: CEC.invalidPhysicalAddress) == "f.f.f.f")
        #expect(CEC.describe([0x4F, 0x82, 0x10, 0x00]) == "4F:82:10:00")
    }
}
