import AmbienceI2C
import AmbienceSensors
import AmbienceSystem
import Testing

@Suite struct TSL2561WireTests {
    let address: I2CAddress = 0x39

    /// ID, power down, TIMING, power up, CONTROL read back; then CONTROL check and both words.
    func initialisationAndRead(timing: UInt8) -> [ScriptedBus.Transfer] {
        [
            .writeThenRead(address, [0x8A], count: 1),
            .write(address, [0x80, 0x00]),
            .write(address, [0x81, timing]),
            .write(address, [0x80, 0x03]),
            .writeThenRead(address, [0x80], count: 1),
            .writeThenRead(address, [0x80], count: 1),
            .writeThenRead(address, [0xAC], count: 2),
            .writeThenRead(address, [0xAE], count: 2),
        ]
    }

    @Test func fixedGainInitialisesAndReadsWithTheDatasheetBytes() throws {
        let bus = ScriptedBus(replies: [[0x50], [0x03], [0x03], [0xE8, 0x03], [0xC8, 0x00]])
        let clock = ManualClock()
        let sensor = TSL2561(
            bus: bus, address: address, settings: .init(gain: .fixed(.x16), integrationTime: .ms402),
            clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(bus.transcript == initialisationAndRead(timing: 0x12))
        #expect(sensor.package == .tFnCl)
        // CH0 1000, CH1 200 at 16x, 402 ms, T package: 23.886 lux by the datasheet formula.
        #expect(abs(reading.lux - 23.886211) < 1e-5)
        #expect(!reading.isSaturated)
        #expect(reading.settings == "gain 16x, 402 ms")
        #expect(clock.now >= 0.402, "the first read waits out one integration")
    }

    @Test(arguments: [
        (TSL2561.Gain.x1, TSL2561.IntegrationTime.ms13point7, UInt8(0x00)),
        (.x1, .ms101, 0x01),
        (.x16, .ms13point7, 0x10),
        (.x16, .ms101, 0x11),
        (.x1, .ms402, 0x02),
    ])
    func timingRegisterEncodesGainAndIntegration(
        gain: TSL2561.Gain, integration: TSL2561.IntegrationTime, timing: UInt8
    ) throws {
        let bus = ScriptedBus(replies: [[0x10], [0x03], [0x03], [0x64, 0x00], [0x1E, 0x00]])
        let clock = ManualClock()
        let sensor = TSL2561(
            bus: bus, address: address, settings: .init(gain: .fixed(gain), integrationTime: integration),
            clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(bus.transcript == initialisationAndRead(timing: timing))
        #expect(sensor.package == .cs)
        #expect(clock.now >= integration.seconds)
        let expected = Reference.tsl2561Lux(
            channel0: 100, channel1: 30, gain16: gain == .x16,
            milliseconds: integration == .ms13point7 ? 13.7 : integration == .ms101 ? 101 : 402,
            csPackage: true)
        #expect(abs(reading.lux - expected) < expected * 1e-9)
    }

    @Test func laterReadsOnlyCheckPowerAndReadTheChannels() throws {
        let clock = ManualClock()
        let bus = ScriptedBus(replies: [
            [0x50], [0x03], [0x03], [0x10, 0x00], [0x01, 0x00], [0x03], [0x20, 0x00], [0x02, 0x00],
        ])
        let sensor = TSL2561(
            bus: bus, address: address, settings: .init(gain: .fixed(.x16), integrationTime: .ms13point7),
            clock: clock)
        _ = try sensor.read(waitingOn: clock)
        let before = bus.transcript.count

        _ = try sensor.read(waitingOn: clock)

        #expect(
            Array(bus.transcript[before...]) == [
                .writeThenRead(address, [0x80], count: 1),
                .writeThenRead(address, [0xAC], count: 2),
                .writeThenRead(address, [0xAE], count: 2),
            ])
    }

    @Test func aChipFoundPoweredDownIsInitialisedAgainBeforeMeasuring() throws {
        let bus = ScriptedBus(replies: [
            [0x50], [0x03], [0x03], [0x10, 0x00], [0x01, 0x00],
            [0x00],  // CONTROL reads 0: power was lost since
            [0x50], [0x03],
            [0x03],  // after the fresh integration, still powered
            [0x20, 0x00], [0x02, 0x00],
        ])
        let clock = ManualClock()
        let sensor = TSL2561(
            bus: bus, address: address, settings: .init(gain: .fixed(.x1), integrationTime: .ms101),
            clock: clock)
        _ = try sensor.read(waitingOn: clock)
        let before = bus.transcript.count
        let reinitialisedAt = clock.now

        let reading = try sensor.read(waitingOn: clock)

        #expect(
            Array(bus.transcript[before...]) == [
                .writeThenRead(address, [0x80], count: 1),
                .writeThenRead(address, [0x8A], count: 1),
                .write(address, [0x80, 0x00]),
                .write(address, [0x81, 0x01]),
                .write(address, [0x80, 0x03]),
                .writeThenRead(address, [0x80], count: 1),
                .writeThenRead(address, [0x80], count: 1),
                .writeThenRead(address, [0xAC], count: 2),
                .writeThenRead(address, [0xAE], count: 2),
            ])
        #expect(clock.now - reinitialisedAt >= 0.101, "a fresh integration is waited for")
        let expected = Reference.tsl2561Lux(
            channel0: 32, channel1: 2, gain16: false, milliseconds: 101, csPackage: false)
        #expect(abs(reading.lux - expected) < 1e-9)
    }

    @Test func automaticGainDropsTo1xWhenNearFullScaleAndMeasuresAgain() throws {
        // 16x at 402 ms reads CH0 60000 (over 90 % of 65535): switch to 1x and measure again.
        let bus = ScriptedBus(replies: [
            [0x50], [0x03],
            [0x03], [0x60, 0xEA], [0x70, 0x17],
            [0x03], [0xA6, 0x0E], [0x77, 0x01],
        ])
        let clock = ManualClock()
        let sensor = TSL2561(bus: bus, address: address, settings: .init(), clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(
            Array(bus.transcript[8...]) == [
                .write(address, [0x80, 0x00]),
                .write(address, [0x81, 0x02]),
                .write(address, [0x80, 0x03]),
                .writeThenRead(address, [0x80], count: 1),
                .writeThenRead(address, [0xAC], count: 2),
                .writeThenRead(address, [0xAE], count: 2),
            ])
        #expect(sensor.gain == .x1)
        #expect(clock.now >= 2 * 0.402)
        let expected = Reference.tsl2561Lux(
            channel0: 3750, channel1: 375, gain16: false, milliseconds: 402, csPackage: false)
        #expect(abs(reading.lux - expected) < 1e-9)
        #expect(reading.settings == "gain 1x (auto), 402 ms")
    }

    @Test func aWrongIDIsRefusedNamingWhatWasRead() {
        let bus = ScriptedBus(replies: [[0xA0]])
        let sensor = TSL2561(bus: bus, address: address, clock: ManualClock())
        #expect {
            _ = try sensor.measure()
        } throws: { error in
            guard let error = error as? SensorError, case .unexpectedChip(let detail) = error.kind else {
                return false
            }
            return detail.contains("0xA0") && error.sensor == "TSL2561 at scripted 0x39"
        }
        #expect(bus.transcript == [.writeThenRead(address, [0x8A], count: 1)])
    }

    @Test(arguments: [
        (UInt8(0x50), "TSL2561", TSL2561.Package.tFnCl), (0x51, "TSL2561", .tFnCl),
        (0x10, "TSL2561", .cs), (0x40, "TSL2560", .tFnCl), (0x00, "TSL2560", .cs),
    ])
    func idRegisterGivesPartAndPackage(id: UInt8, part: String, package: TSL2561.Package) {
        let identity = TSL2561.identify(idRegister: id)
        #expect(identity?.part == part)
        #expect(identity?.package == package)
    }

    @Test func unknownIDsAreNotTaken() {
        for id in [UInt8(0x20), 0x30, 0x60, 0x80, 0xFF] {
            #expect(TSL2561.identify(idRegister: id) == nil)
        }
    }
}
