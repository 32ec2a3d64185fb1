import AmbienceI2C
import AmbienceSensors
import AmbienceSystem
import Testing

@Suite struct OPT3001WireTests {
    let address: I2CAddress = 0x44

    /// Both IDs, the CONFIGURATION write and its read-back.
    func initialisation(_ word: [UInt8]) -> [ScriptedBus.Transfer] {
        [
            .writeThenRead(address, [0x7E], count: 2),
            .writeThenRead(address, [0x7F], count: 2),
            .write(address, [0x01] + word),
            .writeThenRead(address, [0x01], count: 2),
        ]
    }

    var read: [ScriptedBus.Transfer] {
        [.writeThenRead(address, [0x01], count: 2), .writeThenRead(address, [0x00], count: 2)]
    }

    static func ids() -> [[UInt8]] { [[0x54, 0x49], [0x30, 0x01]] }

    @Test func automaticRangeInitialisesAndReadsWithTheDatasheetBytes() throws {
        // Read-back 0xCC10; then CRF set (0xCC90) and RESULT 0x5678: E 5, R 0x678 = 1656.
        let bus = ScriptedBus(replies: Self.ids() + [[0xCC, 0x10], [0xCC, 0x90], [0x56, 0x78]])
        let clock = ManualClock()
        let sensor = OPT3001(bus: bus, address: address, clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(bus.transcript == initialisation([0xCC, 0x10]) + read)
        #expect(abs(reading.lux - 529.92) < 1e-9)
        #expect(!reading.isSaturated)
        #expect(reading.settings == "range 5 (1310.4 lx) (auto), 800 ms")
        #expect(clock.now >= 0.880, "the first read waits out the longest 800 ms conversion")
        #expect(sensor.description == "OPT3001 at scripted 0x44")
    }

    @Test(arguments: [
        (OPT3001.Settings(), UInt16(0xCC10)),
        (.init(conversionTime: .ms100), 0xC410),
        (.init(range: .fixed(OPT3001.FullScale(number: 0)!)), 0x0C10),
        (.init(range: .fixed(OPT3001.FullScale(number: 3)!), conversionTime: .ms100), 0x3410),
        (.init(range: .fixed(OPT3001.FullScale(number: 11)!), conversionTime: .ms800), 0xBC10),
    ])
    func configurationWordCarriesRangeAndConversionTime(settings: OPT3001.Settings, word: UInt16) throws {
        let msb = UInt8(word >> 8)
        let lsb = UInt8(word & 0xFF)
        let bus = ScriptedBus(replies: Self.ids() + [[msb, lsb], [msb, lsb | 0x80], [0x10, 0x64]])
        let clock = ManualClock()
        let sensor = OPT3001(bus: bus, address: address, settings: settings, clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(settings.configurationWord == word)
        #expect(bus.transcript == initialisation([msb, lsb]) + read)
        #expect(clock.now >= settings.conversionTime.maximumSeconds)
        #expect(abs(reading.lux - 2.0) < 1e-9)  // E 1, R 100
    }

    @Test func laterReadsOnlyLookAtConfigurationAndResultAndNeverWriteEvenWhenTheChipRanges() throws {
        // The chip moves from E 2 to E 9 by itself: the driver sends no range change.
        let bus = ScriptedBus(
            replies: Self.ids() + [
                [0xCC, 0x10], [0xCC, 0x90], [0x20, 0x10], [0xCC, 0x90], [0x98, 0x00],
            ])
        let clock = ManualClock()
        let sensor = OPT3001(bus: bus, clock: clock)
        _ = try sensor.read(waitingOn: clock)
        #expect(sensor.range?.number == 2)
        let before = bus.transcript.count
        clock.advance(by: 1)

        let reading = try sensor.read(waitingOn: clock)

        #expect(Array(bus.transcript[before...]) == read)
        #expect(sensor.range?.number == 9)
        #expect(abs(reading.lux - 5.12 * 2048) < 1e-9)
    }

    @Test func noNewConversionMeansComingBackAConversionLater() throws {
        let bus = ScriptedBus(
            replies: Self.ids() + [
                [0xCC, 0x10], [0xCC, 0x10], [0xCC, 0x90], [0x00, 0x0A],
            ])
        let clock = ManualClock()
        let sensor = OPT3001(bus: bus, clock: clock)

        #expect(try sensor.measure() == .pending(until: 0.881))
        clock.sleep(until: 0.881)
        #expect(try sensor.measure() == .pending(until: 0.881 + 0.880))
        clock.sleep(until: 0.881 + 0.880)
        let progress = try sensor.measure()

        guard case .reading(let reading) = progress else {
            Issue.record("no reading: \(progress)")
            return
        }
        #expect(abs(reading.lux - 0.1) < 1e-12)
        #expect(reading.settings == "range 0 (40.95 lx) (auto), 800 ms")
        #expect(bus.transcript == initialisation([0xCC, 0x10]) + [read[0]] + read)
    }

    /// A conversion the chip aborted and retook after a jump in light finishes late: a result
    /// waiting at the third look is taken, not thrown away by setting the chip up again.
    @Test func aLateConversionIsTakenWhenItComes() throws {
        let bus = ScriptedBus(
            replies: Self.ids() + [
                [0xCC, 0x10], [0xCC, 0x10], [0xCC, 0x10], [0xCC, 0x90], [0x00, 0x0A],
            ])
        let clock = ManualClock()
        let sensor = OPT3001(bus: bus, clock: clock)
        var progress = try sensor.measure()
        for _ in 0..<3 {
            guard case .pending(let deadline) = progress else { break }
            clock.sleep(until: deadline)
            progress = try sensor.measure()
        }
        guard case .reading = progress else {
            Issue.record("no reading: \(progress)")
            return
        }
        #expect(bus.transcript == initialisation([0xCC, 0x10]) + [read[0], read[0]] + read)
    }

    @Test func aChipThatLostPowerIsInitialisedAgainBeforeMeasuring() throws {
        let bus = ScriptedBus(
            replies: Self.ids() + [
                [0xC4, 0x10], [0xC4, 0x90], [0x30, 0x40],
                [0xC8, 0x10],  // the power-on default: shut down, so power was lost since
            ] + Self.ids() + [[0xC4, 0x10], [0xC4, 0x90], [0x30, 0x80]])
        let clock = ManualClock()
        let sensor = OPT3001(bus: bus, settings: .init(conversionTime: .ms100), clock: clock)
        _ = try sensor.read(waitingOn: clock)
        let before = bus.transcript.count
        clock.advance(by: 5)
        let reinitialisedAt = clock.now

        let reading = try sensor.read(waitingOn: clock)

        #expect(
            Array(bus.transcript[before...]) == [read[0]] + initialisation([0xC4, 0x10]) + read)
        #expect(clock.now - reinitialisedAt >= 0.110, "a fresh conversion is waited for")
        #expect(abs(reading.lux - 0.08 * 128) < 1e-9)
    }

    @Test func overflowIsFlaggedAsSaturation() throws {
        // OVF (bit 8) and CRF set; RESULT 0xBFFF is the top of the top range, 83 865.6 lux.
        let bus = ScriptedBus(replies: Self.ids() + [[0xCC, 0x10], [0xCD, 0x90], [0xBF, 0xFF]])
        let clock = ManualClock()
        let reading = try OPT3001(bus: bus, clock: clock).read(waitingOn: clock)
        #expect(reading.isSaturated)
        #expect(abs(reading.lux - 83865.6) < 1e-6)
        #expect(reading.settings.hasSuffix(", saturated"))
    }

    @Test func overflowAloneIsEnoughForSaturation() throws {
        // OVF set though the counts stop short of 4095: the conversion still overflowed.
        let bus = ScriptedBus(replies: Self.ids() + [[0xCC, 0x10], [0xCD, 0x90], [0xBF, 0x00]])
        let clock = ManualClock()
        let reading = try OPT3001(bus: bus, clock: clock).read(waitingOn: clock)
        #expect(reading.isSaturated)
        #expect(abs(reading.lux - 20.48 * 0xF00) < 1e-6)
    }

    @Test func aFixedRangeAtFullCountsIsSaturatedWithoutOVF() throws {
        let word: UInt16 = 0x3C10
        let bus = ScriptedBus(replies: Self.ids() + [[0x3C, 0x10], [0x3C, 0x90], [0x3F, 0xFF]])
        let clock = ManualClock()
        let settings = OPT3001.Settings(range: .fixed(OPT3001.FullScale(number: 3)!))
        let reading = try OPT3001(bus: bus, settings: settings, clock: clock).read(waitingOn: clock)
        #expect(settings.configurationWord == word)
        #expect(reading.isSaturated)
        #expect(abs(reading.lux - 327.6) < 1e-9)
    }

    @Test func aWrongIDIsRefusedNamingWhatWasRead() {
        let bus = ScriptedBus(replies: [[0x54, 0x49], [0x30, 0x02]])
        let sensor = OPT3001(bus: bus, address: 0x45, clock: ManualClock())
        #expect {
            _ = try sensor.measure()
        } throws: { error in
            guard let error = error as? SensorError, case .unexpectedChip(let detail) = error.kind else {
                return false
            }
            return detail.contains("0x5449/0x3002") && error.sensor == "OPT3001 at scripted 0x45"
        }
        #expect(bus.transcript.count == 2)
    }

    @Test func identifyReadsBothIDRegisters() {
        let bus = ScriptedBus(replies: Self.ids())
        #expect(OPT3001.identify(bus: bus, address: 0x47))
        #expect(
            bus.transcript == [
                .writeThenRead(0x47, [0x7E], count: 2), .writeThenRead(0x47, [0x7F], count: 2),
            ])
        // Byte-swapped (as SMBus word data would give), another chip, or no answer: not an OPT3001.
        #expect(!OPT3001.identify(bus: ScriptedBus(replies: [[0x49, 0x54], [0x01, 0x30]]), address: 0x44))
        #expect(!OPT3001.identify(bus: ScriptedBus(replies: [[0x54, 0x49], [0x30, 0x02]]), address: 0x44))
        let silent = ScriptedBus()
        silent.failures = [I2CError(.notAcknowledged, bus: "scripted", address: 0x44, errno: .remoteIO)]
        #expect(!OPT3001.identify(bus: silent, address: 0x44))
    }

    @Test func addressesAndRangeParsing() {
        #expect(OPT3001.addresses == [0x44, 0x45, 0x46, 0x47])
        #expect(OPT3001.defaultAddress == 0x44)
        #expect(OPT3001.RangeSetting(parsing: "auto") == .automatic)
        #expect(OPT3001.RangeSetting(parsing: "11") == .fixed(OPT3001.FullScale(number: 11)!))
        #expect(OPT3001.RangeSetting(parsing: "12") == nil)
        #expect(abs((OPT3001.FullScale(number: 11)?.maximumLux ?? 0) - 83865.6) < 1e-6)
    }
}
