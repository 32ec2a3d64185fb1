import AmbienceI2C
import AmbienceSensors
import AmbienceSystem
import Testing

@Suite struct VEML7700WireTests {
    let address: I2CAddress = 0x10

    /// ID, shut down with the configuration, power saving off, the ALS_WH marker, power on.
    func initialisation(configuration: UInt16) -> [ScriptedBus.Transfer] {
        let low = UInt8(configuration & 0xFF)
        let high = UInt8(configuration >> 8)
        return [
            .writeThenRead(address, [0x07], count: 2),
            .write(address, [0x00, low | 0x01, high]),
            .write(address, [0x03, 0x00, 0x00]),
            .write(address, [0x01, 0xFF, 0xFF]),
            .write(address, [0x00, low, high]),
        ]
    }

    /// The marker, then the ALS counts.
    var read: [ScriptedBus.Transfer] {
        [.writeThenRead(address, [0x01], count: 2), .writeThenRead(address, [0x04], count: 2)]
    }

    static func failure(_ read: () throws -> Void) -> SensorError? {
        do {
            try read()
            return nil
        } catch {
            return error as? SensorError
        }
    }

    @Test func fixedRangeInitialisesAndReadsWithTheDatasheetBytes() throws {
        let bus = ScriptedBus(replies: [[0x81, 0xC4], [0xFF, 0xFF], [0xE8, 0x03]])
        let clock = ManualClock()
        let sensor = VEML7700(
            bus: bus, settings: .init(gain: .x2, integrationTime: .ms100), clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        // Gain 2x is 0b01 in bits 12:11, 100 ms is 0b0000 in bits 9:6.
        #expect(bus.transcript == initialisation(configuration: 0x0800) + read)
        // 1000 counts at 0.0336 lx per count.
        #expect(abs(reading.lux - 33.6) < 1e-9)
        #expect(!reading.isSaturated)
        #expect(reading.settings == "gain 2x, 100 ms")
        #expect(clock.now >= 0.1 + 0.0025, "the first read waits out start-up and one integration")
        #expect(sensor.description == "VEML7700 at scripted 0x10")
    }

    @Test(arguments: [
        (VEML7700.Gain.eighth, VEML7700.IntegrationTime.ms25, UInt16(0x1300)),
        (.quarter, .ms800, 0x18C0),
        (.x1, .ms50, 0x0200),
        (.x2, .ms400, 0x0880),
        (.x1, .ms200, 0x0040),
        (.eighth, .ms100, 0x1000),
    ])
    func configurationWordEncodesGainAndIntegration(
        gain: VEML7700.Gain, integration: VEML7700.IntegrationTime, configuration: UInt16
    ) throws {
        let bus = ScriptedBus(replies: [[0x81, 0xC4], [0xFF, 0xFF], [0x10, 0x00]])
        let clock = ManualClock()
        let sensor = VEML7700(
            bus: bus, settings: .init(gain: gain, integrationTime: integration), clock: clock)

        _ = try sensor.read(waitingOn: clock)

        #expect(bus.transcript == initialisation(configuration: configuration) + read)
        #expect(clock.now >= integration.seconds)
    }

    @Test func automaticRangingStartsAtAnEighthAnd100msThenSwitchesOnce() throws {
        // 50 counts at 1/8, 100 ms (0.5376 lx per count) is 26.88 lx: too few counts. The most
        // sensitive range giving at most 5000 is 2x, 400 ms (0.0084): 3200 counts.
        let bus = ScriptedBus(replies: [
            [0x81, 0xC4], [0xFF, 0xFF], [0x32, 0x00], [0xFF, 0xFF], [0x80, 0x0C],
        ])
        let clock = ManualClock()
        let sensor = VEML7700(bus: bus, clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        let rangeChange: [ScriptedBus.Transfer] = [
            .write(address, [0x00, 0x81, 0x08]),
            .write(address, [0x00, 0x80, 0x08]),
        ]
        #expect(bus.transcript == initialisation(configuration: 0x1000) + read + rangeChange + read)
        #expect(sensor.range == VEML7700.Range(gain: .x2, integrationTime: .ms400))
        #expect(abs(reading.lux - 26.88) < 1e-9)
        #expect(reading.settings == "gain 2x, 400 ms (auto)")
        #expect(clock.now >= 0.1 + 0.4, "both conversions are waited out")
    }

    @Test func saturationGoesStraightToTheLeastSensitiveRange() throws {
        let bus = ScriptedBus(replies: [
            // Darkness: 0 counts at 1/8, 100 ms sends it to 2x, 800 ms, where 20 counts stay.
            [0x81, 0xC4], [0xFF, 0xFF], [0x00, 0x00], [0xFF, 0xFF], [0x14, 0x00],
            // Then sunlight saturates it: 1/8, 25 ms at once, not 1x, 100 ms, which the
            // saturated count's 275 lx would pick.
            [0xFF, 0xFF], [0xFF, 0xFF], [0xFF, 0xFF], [0xA0, 0x0F],
        ])
        let clock = ManualClock()
        let sensor = VEML7700(bus: bus, clock: clock)
        let dark = try sensor.read(waitingOn: clock)
        #expect(abs(dark.lux - 20 * 0.0042) < 1e-9)
        clock.advance(by: 1)
        let before = bus.transcript.count

        let reading = try sensor.read(waitingOn: clock)

        let rangeChange: [ScriptedBus.Transfer] = [
            .write(address, [0x00, 0x01, 0x13]),
            .write(address, [0x00, 0x00, 0x13]),
        ]
        #expect(Array(bus.transcript[before...]) == read + rangeChange + read)
        #expect(!reading.isSaturated)
        // 4000 counts at 2.1504 lx per count is 8601.6 lx before the correction.
        #expect(abs(reading.lux - VEML7700.corrected(8601.6)) < 1e-6)
    }

    @Test func aChipThatLostPowerIsInitialisedAgain() throws {
        let bus = ScriptedBus(replies: [
            [0x81, 0xC4], [0xFF, 0xFF], [0x64, 0x00],
            // Replugged: ALS_WH is back at 0x0000.
            [0x00, 0x00], [0x81, 0xC4], [0xFF, 0xFF], [0xC8, 0x00],
        ])
        let clock = ManualClock()
        let sensor = VEML7700(bus: bus, settings: .init(gain: .x1, integrationTime: .ms200), clock: clock)
        _ = try sensor.read(waitingOn: clock)
        clock.advance(by: 1)
        let before = bus.transcript.count

        let reading = try sensor.read(waitingOn: clock)

        let again = Array(bus.transcript[before...])
        #expect(again == [read[0]] + initialisation(configuration: 0x0040) + read)
        // 200 counts at 1x, 200 ms: 0.0336 lx per count.
        #expect(abs(reading.lux - 6.72) < 1e-9)
    }

    @Test func laterReadsOnlyCheckTheMarkerAndReadTheCounts() throws {
        let bus = ScriptedBus(replies: [
            [0x81, 0xC4], [0xFF, 0xFF], [0x64, 0x00], [0xFF, 0xFF], [0x65, 0x00],
        ])
        let clock = ManualClock()
        let sensor = VEML7700(bus: bus, settings: .init(gain: .x1, integrationTime: .ms100), clock: clock)
        _ = try sensor.read(waitingOn: clock)
        clock.advance(by: 1)
        let before = bus.transcript.count

        let reading = try sensor.read(waitingOn: clock)

        #expect(Array(bus.transcript[before...]) == read)
        #expect(abs(reading.lux - 101 * 0.0672) < 1e-9)
    }

    @Test func saturationIsFlaggedWithTheLinearLowerBound() throws {
        let bus = ScriptedBus(replies: [[0x81, 0xC4], [0xFF, 0xFF], [0xFF, 0xFF]])
        let clock = ManualClock()
        let sensor = VEML7700(bus: bus, settings: .init(gain: .x2, integrationTime: .ms800), clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(reading.isSaturated)
        #expect(abs(reading.lux - 65535 * 0.0042) < 1e-9)
        #expect(reading.settings == "gain 2x, 800 ms, saturated")
    }

    @Test func anotherChipAtTheAddressIsRefused() throws {
        let bus = ScriptedBus(replies: [[0x50, 0x00]])
        let sensor = VEML7700(bus: bus, clock: ManualClock())

        let error = Self.failure { _ = try sensor.measure() }

        guard case .unexpectedChip(let what) = error?.kind else {
            Issue.record("expected an unexpected chip, got \(String(describing: error))")
            return
        }
        #expect(what.contains("0x0050"))
        #expect(bus.transcript == [.writeThenRead(address, [0x07], count: 2)], "nothing is written to it")
    }

    @Test func identifyReadsTheDeviceIDFromTheLowByte() {
        #expect(VEML7700.identify(bus: ScriptedBus(replies: [[0x81, 0xC4]]), address: address))
        #expect(VEML7700.identify(bus: ScriptedBus(replies: [[0x81, 0x00]]), address: address))
        #expect(!VEML7700.identify(bus: ScriptedBus(replies: [[0xC4, 0x81]]), address: address))
        let failing = ScriptedBus()
        failing.failures = [I2CError(.notAcknowledged, bus: "scripted", address: address, errno: .remoteIO)]
        #expect(!VEML7700.identify(bus: failing, address: address))
        let bus = ScriptedBus(replies: [[0x81, 0xC4]])
        _ = VEML7700.identify(bus: bus, address: address)
        #expect(bus.transcript == [.writeThenRead(address, [0x07], count: 2)])
    }
}
