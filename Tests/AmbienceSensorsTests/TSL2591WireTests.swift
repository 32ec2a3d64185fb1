import AmbienceI2C
import AmbienceSensors
import AmbienceSystem
import Testing

@Suite struct TSL2591WireTests {
    let address: I2CAddress = 0x29

    /// ID, ALS off, CONTROL, ALS on, ENABLE read back: the initialisation.
    func initialisation(control: UInt8) -> [ScriptedBus.Transfer] {
        [
            .writeThenRead(address, [0xB2], count: 1),
            .write(address, [0xA0, 0x01]),
            .write(address, [0xA1, control]),
            .write(address, [0xA0, 0x03]),
            .writeThenRead(address, [0xA0], count: 1),
        ]
    }

    /// ENABLE still on, then STATUS and both channels in one transfer.
    var read: [ScriptedBus.Transfer] {
        [.writeThenRead(address, [0xA0], count: 1), .writeThenRead(address, [0xB3], count: 5)]
    }

    @Test func fixedSettingsInitialiseAndReadWithTheDatasheetBytes() throws {
        let bus = ScriptedBus(replies: [[0x50], [0x03], [0x03], [0x01, 0xE8, 0x03, 0xC8, 0x00]])
        let clock = ManualClock()
        let sensor = TSL2591(
            bus: bus, settings: .init(gain: .fixed(.medium), integrationTime: .ms100), clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(bus.transcript == initialisation(control: 0x10) + read)
        // C0 1000, C1 200 at 25x, 100 ms.
        #expect(abs(reading.lux - 104.448) < 1e-9)
        #expect(!reading.isSaturated)
        #expect(reading.settings == "gain 25x, 100 ms")
        #expect(clock.now >= 0.1, "the first read waits out one integration")
        #expect(sensor.description == "TSL2591 at scripted 0x29")
    }

    @Test(arguments: [
        (TSL2591.Gain.low, TSL2591.IntegrationTime.ms600, UInt8(0x05)),
        (.medium, .ms200, 0x11),
        (.high, .ms300, 0x22),
        (.maximum, .ms400, 0x33),
        (.maximum, .ms500, 0x34),
    ])
    func controlEncodesGainAndIntegration(
        gain: TSL2591.Gain, integration: TSL2591.IntegrationTime, control: UInt8
    ) throws {
        let bus = ScriptedBus(replies: [[0x50], [0x03], [0x03], [0x01, 0x64, 0x00, 0x1E, 0x00]])
        let clock = ManualClock()
        let sensor = TSL2591(
            bus: bus, settings: .init(gain: .fixed(gain), integrationTime: integration), clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(bus.transcript == initialisation(control: control) + read)
        #expect(clock.now >= integration.seconds)
        let expected = TSL2591Reference.lux(
            channel0: 100, channel1: 30, gainIndex: gain.rawValue, milliseconds: integration.milliseconds)
        #expect(abs(reading.lux - expected) < expected * 1e-12)
    }

    @Test func laterReadsOnlyCheckEnableAndReadTheBlock() throws {
        let clock = ManualClock()
        let bus = ScriptedBus(replies: [
            [0x50], [0x03], [0x03], [0x01, 0x10, 0x00, 0x01, 0x00], [0x03], [0x11, 0x20, 0x00, 0x02, 0x00],
        ])
        let sensor = TSL2591(
            bus: bus, settings: .init(gain: .fixed(.high), integrationTime: .ms100), clock: clock)
        _ = try sensor.read(waitingOn: clock)
        let before = bus.transcript.count

        _ = try sensor.read(waitingOn: clock)

        #expect(Array(bus.transcript[before...]) == read)
    }

    @Test func automaticGainStepsDownNearSaturationAndMeasuresAgain() throws {
        // 25x at 100 ms reads C0 36000 (over 90 % of 36863): 1x, and measure again.
        let bus = ScriptedBus(replies: [
            [0x50], [0x03],
            [0x03], [0x01, 0xA0, 0x8C, 0x00, 0x2A],
            [0x03], [0x01, 0xA0, 0x05, 0xB0, 0x01],
        ])
        let clock = ManualClock()
        let sensor = TSL2591(bus: bus, clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(
            bus.transcript
                == initialisation(control: 0x10) + read + [
                    .write(address, [0xA0, 0x01]),
                    .write(address, [0xA1, 0x00]),
                    .write(address, [0xA0, 0x03]),
                ] + read)
        #expect(sensor.gain == .low)
        #expect(clock.now >= 0.2)
        // C0 1440, C1 432 at 1x: 1008 × 0.7 × 4.08.
        #expect(abs(reading.lux - 2878.848) < 1e-9)
        #expect(reading.settings == "gain 1x (auto), 100 ms")
    }

    @Test func automaticGainClimbsStraightToTheGainTheCountsAllow() throws {
        // 25x reads C0 10: ×9876/25 makes 3950, under 40 % of 36863, so maximum, skipping 428x.
        let bus = ScriptedBus(replies: [
            [0x50], [0x03],
            [0x03], [0x01, 0x0A, 0x00, 0x03, 0x00],
            [0x03], [0x01, 0x80, 0x0F, 0xB0, 0x04],
        ])
        let clock = ManualClock()
        let sensor = TSL2591(bus: bus, clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(
            Array(bus.transcript[7...9]) == [
                .write(address, [0xA0, 0x01]), .write(address, [0xA1, 0x30]), .write(address, [0xA0, 0x03]),
            ])
        #expect(sensor.gain == .maximum)
        let expected = TSL2591Reference.lux(channel0: 3968, channel1: 1200, gainIndex: 3, milliseconds: 100)
        #expect(abs(reading.lux - expected) < expected * 1e-12)
    }

    @Test func aChipFoundDisabledIsInitialisedAgainBeforeMeasuring() throws {
        let bus = ScriptedBus(replies: [
            [0x50], [0x03], [0x03], [0x01, 0x10, 0x00, 0x01, 0x00],
            [0x00],  // ENABLE reads 0: power was lost since
            [0x50], [0x03],
            [0x03], [0x01, 0x20, 0x00, 0x02, 0x00],
        ])
        let clock = ManualClock()
        let sensor = TSL2591(
            bus: bus, settings: .init(gain: .fixed(.low), integrationTime: .ms200), clock: clock)
        _ = try sensor.read(waitingOn: clock)
        let before = bus.transcript.count
        let reinitialisedAt = clock.now

        let reading = try sensor.read(waitingOn: clock)

        #expect(
            Array(bus.transcript[before...])
                == [.writeThenRead(address, [0xA0], count: 1)] + initialisation(control: 0x01) + read)
        #expect(clock.now - reinitialisedAt >= 0.2, "a fresh integration is waited for")
        let expected = TSL2591Reference.lux(channel0: 32, channel1: 2, gainIndex: 0, milliseconds: 200)
        #expect(abs(reading.lux - expected) < expected * 1e-12)
    }

    @Test func dataNotYetValidAreAskedForAgainABoundedNumberOfTimes() throws {
        let notValid: [UInt8] = [0x00, 0, 0, 0, 0]
        let bus = ScriptedBus(replies: [
            [0x50], [0x03], [0x03], notValid, [0x03], [0x01, 0x10, 0x00, 0x01, 0x00],
        ])
        let clock = ManualClock()
        let sensor = TSL2591(
            bus: bus, settings: .init(gain: .fixed(.low), integrationTime: .ms100), clock: clock)
        _ = try sensor.measure()
        clock.advance(by: 0.2)
        guard case .pending(let until) = try sensor.measure() else {
            Issue.record("no AVALID must not give a reading")
            return
        }
        #expect(until > clock.now && until - clock.now < 0.1)
        clock.sleep(until: until)
        #expect(try sensor.measure() != .pending(until: until))

        let stuck = ScriptedBus(
            replies: [[0x50], [0x03]] + Array(repeating: [[0x03], notValid], count: 5).flatMap { $0 })
        let stuckSensor = TSL2591(
            bus: stuck, settings: .init(gain: .fixed(.low), integrationTime: .ms100), clock: clock)
        #expect(throws: SensorError.self) { _ = try stuckSensor.read(waitingOn: clock) }
    }

    @Test func aWrongIDIsRefusedNamingWhatWasRead() {
        let bus = ScriptedBus(replies: [[0x0A]])
        let sensor = TSL2591(bus: bus, clock: ManualClock())
        #expect {
            _ = try sensor.measure()
        } throws: { error in
            guard let error = error as? SensorError, case .unexpectedChip(let detail) = error.kind else {
                return false
            }
            return detail.contains("0x0A") && error.sensor == "TSL2591 at scripted 0x29"
        }
        #expect(bus.transcript == [.writeThenRead(address, [0xB2], count: 1)])
    }

    @Test func identifyReadsOnlyTheIDRegister() throws {
        let yes = ScriptedBus(replies: [[0x50]])
        #expect(try TSL2591.identify(bus: yes, address: 0x29))
        #expect(yes.transcript == [.writeThenRead(address, [0xB2], count: 1)])
        // A TSL2561 at 0x29 answers 0xB2 from its threshold register: 0x00 after power-up.
        for other: UInt8 in [0x00, 0x50 ^ 0x01, 0x10, 0xFF] {
            #expect(try !TSL2591.identify(bus: ScriptedBus(replies: [[other]]), address: 0x29))
        }
        #expect(TSL2591.addresses == [0x29])
        #expect(TSL2591.defaultAddress == 0x29)
    }
}
