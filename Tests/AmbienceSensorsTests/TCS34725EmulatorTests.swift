import AmbienceCore
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

/// The emulated TCS34725, whose counts come from a black body's spectrum through the
/// datasheet's responsivity, alone and with the driver: lux, the light's colour temperature,
/// automatic gain over the range, and saturation.
@Suite struct TCS34725EmulatorTests {
    final class Rig {
        let clock = ManualClock()
        let bus: MockI2CBus
        let lamp: Lamp
        let chip: TCS34725Emulator
        let sensor: TCS34725

        init(lux: Double, kelvin: Double, settings: TCS34725.Settings = .init(), stretch: Double = 1) {
            bus = MockI2CBus(clock: clock)
            let lamp = Lamp(lux)
            self.lamp = lamp
            chip = TCS34725Emulator(
                integrationStretch: stretch, kelvin: { _ in kelvin }, light: { _ in lamp.lux })
            bus.attach(chip, at: 0x29)
            sensor = TCS34725(bus: bus, settings: settings, clock: clock)
        }

        func read() throws -> Reading { try sensor.read(waitingOn: clock) }
    }

    static func mired(_ kelvin: Double) -> Double { 1e6 / kelvin }

    // MARK: The chip alone

    @Test func powerOnDefaultsReadBackOverTheBus() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TCS34725Emulator { _ in 100 }
        bus.attach(chip, at: 0x29)
        #expect(try bus.writeThenRead([0xA0], readCount: 2, address: 0x29) == [0x00, 0xFF], "ENABLE, ATIME")
        #expect(try bus.readByteData(command: 0xB2, from: 0x29) == 0x44)
        clock.advance(by: 1)
        #expect(try bus.writeThenRead([0xB3], readCount: 9, address: 0x29) == [UInt8](repeating: 0, count: 9))
        #expect(chip.protocolViolations.isEmpty)
    }

    @Test func aRepeatedByteReadStaysOnItsRegister() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TCS34725Emulator { _ in 100 }
        bus.attach(chip, at: 0x29)
        // TYPE 00: 0x80 | 0x12, the ID three times over.
        #expect(try bus.writeThenRead([0x92], readCount: 3, address: 0x29) == [0x44, 0x44, 0x44])
        try bus.write([0x40], to: 0x29)
        #expect(chip.protocolViolations == ["command byte 0x40 without the CMD bit (0x80)"])
    }

    @Test func aConversionWaitsForTheWarmUpAndOneIntegration() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TCS34725Emulator(kelvin: { _ in 4000 }, light: { _ in 300 })
        bus.attach(chip, at: 0x29)
        try bus.writeByteData(command: 0xA1, value: 0xD6, to: 0x29)  // 42 cycles, 100.8 ms
        try bus.writeByteData(command: 0xA0, value: 0x03, to: 0x29)
        clock.advance(by: 0.1025)
        #expect(try bus.readByteData(command: 0xB3, from: 0x29) & 0x01 == 0, "2.4 ms + 100.8 ms not yet up")
        clock.advance(by: 0.001)
        #expect(try bus.readByteData(command: 0xB3, from: 0x29) & 0x01 == 1)
        let counts = chip.channelCounts
        #expect(
            counts[0] > counts[1] && counts[0] > counts[2] && counts[0] > counts[3], "clear sees the most")
        try bus.writeByteData(command: 0xA0, value: 0x01, to: 0x29)
        #expect(try bus.readByteData(command: 0xB3, from: 0x29) & 0x01 == 0, "AEN off clears AVALID")
    }

    // MARK: With the driver

    /// DN40's lux is right at 4000 K, where the emulator's scale is set, and within 9 % from
    /// 2700 K to 6500 K, as its formula's weights allow (docs/whitepoint.md).
    @Test(arguments: [2700.0, 4000, 6500])
    func luxFollowsTheLightWhateverItsColour(kelvin: Double) throws {
        for lux in [5.0, 80, 300, 2000, 15000] {
            let rig = Rig(lux: lux, kelvin: kelvin)
            let reading = try rig.read()
            let tolerance = kelvin == 4000 ? 0.01 : 0.09
            #expect(
                abs(reading.lux - lux) <= lux * tolerance + 0.5,
                "\(lux) lx at \(kelvin) K read \(reading.lux)")
            #expect(rig.chip.protocolViolations.isEmpty)
        }
    }

    /// Through the fitted matrix, a black body's colour temperature within 6 mired from a
    /// candle's 1900 K to the sky's 10,000 K; Duv within 0.003 over the fit's lights (2200 K to
    /// 9000 K) and 0.01 beyond.
    @Test(arguments: [1900.0, 2700, 2856, 4000, 5000, 6500, 10000])
    func theColourTemperatureOfABlackBody(kelvin: Double) throws {
        let rig = Rig(lux: 400, kelvin: kelvin)
        let colour = try #require(try rig.read().colour?.chromaticity)
        let measured = try #require(ColourTemperature(colour))
        #expect(
            abs(Self.mired(measured.kelvin) - Self.mired(kelvin)) < 6, "\(kelvin) K read \(measured.kelvin)")
        #expect(
            abs(measured.duv) < (2200...9000 ~= kelvin ? 0.003 : 0.01),
            "\(kelvin) K: Duv \(measured.duv), mired off \(Self.mired(measured.kelvin) - Self.mired(kelvin))")
    }

    @Test func automaticGainClimbsInTheDarkAndDropsInTheSun() throws {
        let rig = Rig(lux: 2, kelvin: 2700)
        _ = try rig.read()
        #expect(rig.sensor.gain == .x60)
        rig.lamp.lux = 8000
        rig.clock.advance(by: 0.2)
        let bright = try rig.read()
        #expect(rig.sensor.gain == .x1)
        #expect(!bright.isSaturated && bright.colour != nil)
        #expect(abs(bright.lux - 8000) < 8000 * 0.07)
    }

    @Test func directSunSaturatesAndGivesNoColour() throws {
        let rig = Rig(lux: 100_000, kelvin: 5800)
        let reading = try rig.read()
        #expect(reading.isSaturated)
        #expect(reading.colour == nil)
        #expect(rig.sensor.gain == .x1)
    }

    @Test func aSlowOscillatorIsWaitedFor() throws {
        let rig = Rig(lux: 300, kelvin: 4000, stretch: 1.25)
        let reading = try rig.read()
        #expect(abs(reading.lux - 300) < 3)
        #expect(rig.chip.protocolViolations.isEmpty)
    }
}
