import AmbienceCore
import AmbienceI2C
import AmbienceSensors
import AmbienceSystem
import Testing

@Suite struct BH1750WireTests {
    let address: I2CAddress = 0x23

    @Test(arguments: [
        (BH1750.Mode.high, 69, UInt8(0x10), [UInt8(0x42), 0x65]),
        (.high2, 254, 0x11, [0x47, 0x7E]),
        (.low, 31, 0x13, [0x40, 0x7F]),
        (.high, 138, 0x10, [0x44, 0x6A]),
    ])
    func fixedModeInitialisesAndReadsWithTheDatasheetBytes(
        mode: BH1750.Mode, mtreg: Int, opcode: UInt8, measurementTimeBytes: [UInt8]
    ) throws {
        let bus = ScriptedBus(replies: [[0x01, 0x2C]])
        let clock = ManualClock()
        let sensor = BH1750(
            bus: bus, address: address, settings: try .init(mode: .fixed(mode), measurementTime: mtreg),
            clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(
            bus.transcript == [
                .write(address, [0x01]),
                .write(address, [0x07]),
                .write(address, [measurementTimeBytes[0]]),
                .write(address, [measurementTimeBytes[1]]),
                .write(address, [opcode]),
                .read(address, count: 2),
            ])
        // The datasheet's maximum measurement time (180 ms H-res, 24 ms L-res at MTreg 69) × MTreg/69.
        let maximum = (mode == .low ? 0.024 : 0.180) * Double(mtreg) / 69
        #expect(clock.now >= maximum)
        #expect(clock.now < maximum + 0.01)
        let expected = Reference.bh1750Lux(counts: 300, mtreg: mtreg, mode2: mode == .high2)
        #expect(abs(reading.lux - expected) < 1e-9)
        #expect(!reading.isSaturated)
    }

    @Test func aConversionIsTheTimeToComeBackNeverAWait() throws {
        let bus = ScriptedBus(replies: [[0x01, 0x2C]])
        let clock = ManualClock()
        let sensor = BH1750(
            bus: bus, address: address, settings: try .init(mode: .fixed(.high)), clock: clock)

        let first = try sensor.measure()

        #expect(first == .pending(until: 0.181))
        #expect(clock.now == 0, "the driver did not sleep")
        #expect(bus.transcript.count == 5, "initialised, nothing read yet")
        #expect(try sensor.measure() == .pending(until: 0.181), "too early: still converting")
        clock.advance(by: 0.181)
        guard case .reading(let reading) = try sensor.measure() else {
            Issue.record("no reading once the conversion is done")
            return
        }
        #expect(abs(reading.lux - 300 / 1.2) < 1e-9)
    }

    @Test func laterReadsAreOneTwoByteRead() throws {
        let clock = ManualClock()
        let bus = ScriptedBus(replies: [[0x00, 0x78], [0x00, 0x79]])
        let sensor = BH1750(
            bus: bus, address: address, settings: try .init(mode: .fixed(.high)), clock: clock)
        _ = try sensor.read(waitingOn: clock)
        let before = bus.transcript.count

        let reading = try sensor.read(waitingOn: clock)

        #expect(Array(bus.transcript[before...]) == [.read(address, count: 2)])
        #expect(abs(reading.lux - 121 / 1.2) < 1e-9)
    }

    @Test func allOnesIsSaturatedAndReportedAsALowerBound() throws {
        let clock = ManualClock()
        let bus = ScriptedBus(replies: [[0xFF, 0xFF]])
        let sensor = BH1750(
            bus: bus, address: address, settings: try .init(mode: .fixed(.high), measurementTime: 31),
            clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(reading.isSaturated)
        #expect(abs(reading.lux - 65535 / 1.2 * 69 / 31) < 1e-6)
        #expect(reading.settings == "H-res, MTreg 31, saturated")
    }

    @Test func aFallToZeroIsCheckedBySendingTheConfigurationAgain() throws {
        // A replugged chip reads 0 until told to measure: the driver re-sends its settings and
        // waits one measurement before believing a sudden 0.
        let bus = ScriptedBus(replies: [[0x01, 0x00], [0x00, 0x00], [0x01, 0x02]])
        let clock = ManualClock()
        let sensor = BH1750(
            bus: bus, address: address, settings: try .init(mode: .fixed(.high2), measurementTime: 100),
            clock: clock)
        _ = try sensor.read(waitingOn: clock)
        let before = bus.transcript.count
        let start = clock.now

        let reading = try sensor.read(waitingOn: clock)

        #expect(
            Array(bus.transcript[before...]) == [
                .read(address, count: 2),
                .write(address, [0x01]),
                .write(address, [0x43]),
                .write(address, [0x64]),
                .write(address, [0x11]),
                .read(address, count: 2),
            ])
        #expect(clock.now - start >= 0.180 * 100 / 69)
        #expect(abs(reading.lux - Reference.bh1750Lux(counts: 258, mtreg: 100, mode2: true)) < 1e-9)
    }

    @Test func lastingDarknessIsReassertedNowAndThenWithoutWaiting() throws {
        let bus = ScriptedBus(replies: Array(repeating: [0x00, 0x00], count: 4))
        let clock = ManualClock()
        let sensor = BH1750(
            bus: bus, address: address, settings: try .init(mode: .fixed(.high)), clock: clock,
            reassertInterval: 1)
        _ = try sensor.read(waitingOn: clock)
        clock.advance(by: 0.5)
        _ = try sensor.read(waitingOn: clock)
        #expect(bus.transcript.count == 7, "within a second of configuring, a 0 is just read")
        clock.advance(by: 0.6)
        let before = clock.now

        let reading = try sensor.read(waitingOn: clock)

        #expect(
            Array(bus.transcript[7...]) == [
                .read(address, count: 2),
                .write(address, [0x01]),
                .write(address, [0x42]),
                .write(address, [0x65]),
                .write(address, [0x10]),
            ])
        #expect(clock.now == before, "no wait for darkness")
        #expect(reading.lux == 0)
        #expect(!reading.isSaturated)
    }

    @Test func settingsRejectWhatTheChipCannotDo() {
        #expect(throws: ConfigurationError.self) {
            try BH1750.Settings(mode: .fixed(.high), measurementTime: 30)
        }
        #expect(throws: ConfigurationError.self) {
            try BH1750.Settings(mode: .fixed(.high), measurementTime: 255)
        }
        #expect(throws: ConfigurationError.self) {
            try BH1750.Settings(mode: .automatic, measurementTime: 69)
        }
        #expect((try? BH1750.Settings(mode: .fixed(.low), measurementTime: 31))?.measurementTime == 31)
        #expect((try? BH1750.Settings(mode: .fixed(.low), measurementTime: 254))?.measurementTime == 254)
        #expect(BH1750.ModeSetting(parsing: "auto") == .automatic)
        #expect(BH1750.ModeSetting(parsing: "high2") == .fixed(.high2))
        #expect(BH1750.ModeSetting(parsing: "medium") == nil)
        #expect(TSL2561.GainSetting(parsing: "16x") == .fixed(.x16))
        #expect(TSL2561.GainSetting(parsing: "auto") == .automatic)
        #expect(TSL2561.GainSetting(parsing: "4x") == nil)
        #expect(TSL2561.IntegrationTime(milliseconds: 13.7) == .ms13point7)
        #expect(TSL2561.IntegrationTime(milliseconds: 402) == .ms402)
        #expect(TSL2561.IntegrationTime(milliseconds: 200) == nil)
    }
}
