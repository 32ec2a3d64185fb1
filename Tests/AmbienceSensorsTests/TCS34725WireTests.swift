import AmbienceCore
import AmbienceI2C
import AmbienceSensors
import AmbienceSystem
import Testing

@Suite struct TCS34725WireTests {
    let address: I2CAddress = 0x29

    /// ID, ADC off, ATIME, CONTROL, ADC on, ENABLE read back: the initialisation.
    func initialisation(atime: UInt8, control: UInt8) -> [ScriptedBus.Transfer] {
        [
            .writeThenRead(address, [0xB2], count: 1),
            .write(address, [0xA0, 0x01]),
            .write(address, [0xA1, atime]),
            .write(address, [0xAF, control]),
            .write(address, [0xA0, 0x03]),
            .writeThenRead(address, [0xA0], count: 1),
        ]
    }

    /// ENABLE still on, then STATUS and the four channels in one transfer.
    var read: [ScriptedBus.Transfer] {
        [.writeThenRead(address, [0xA0], count: 1), .writeThenRead(address, [0xB3], count: 9)]
    }

    /// C 1000, R 400, G 350, B 300, low byte first.
    let counts: [UInt8] = [0x01, 0xE8, 0x03, 0x90, 0x01, 0x5E, 0x01, 0x2C, 0x01]

    @Test func fixedSettingsInitialiseAndReadWithTheDatasheetBytes() throws {
        let bus = ScriptedBus(replies: [[0x44], [0x03], [0x03], counts])
        let clock = ManualClock()
        let sensor = TCS34725(
            bus: bus, settings: .init(gain: .fixed(.x4), integrationTime: .ms101), clock: clock)

        let reading = try sensor.read(waitingOn: clock)

        #expect(bus.transcript == initialisation(atime: 0xD6, control: 0x01) + read)
        // DN40: IR = (400 + 350 + 300 - 1000) / 2 = 25; (0.136·375 + 325 - 0.444·275) / (100.8·4/310).
        #expect(abs(reading.lux - 253.9 / (100.8 * 4 / 310)) < 1e-9)
        let colour = try #require(reading.colour)
        #expect(abs(colour.y - (0.3555 * 375 + 1.9162 * 325 - 0.5413 * 275)) < 1e-9)
        #expect(!reading.isSaturated)
        #expect(reading.settings == "gain 4x, 101 ms")
        #expect(clock.now >= 0.1008, "the first read waits out one integration")
        #expect(sensor.description == "TCS34725 at scripted 0x29")
    }

    @Test func theTCS34727sIDIsTakenAndATSL2591sIsNot() throws {
        let clock = ManualClock()
        let other = ScriptedBus(replies: [[0x4D], [0x03], [0x03], counts])
        _ = try TCS34725(bus: other, settings: .init(gain: .fixed(.x1)), clock: clock).read(waitingOn: clock)
        let tsl2591 = ScriptedBus(replies: [[0x50]])
        #expect(throws: SensorError.self) {
            try TCS34725(bus: tsl2591, clock: clock).read(waitingOn: clock)
        }
    }

    @Test func aSaturatedChannelGivesNoColour() throws {
        // 101 ms saturates at 75 % of 43008 counts: the clear channel at 0xFFFF is past it.
        let saturated: [UInt8] = [0x01, 0xFF, 0xFF, 0x90, 0x01, 0x5E, 0x01, 0x2C, 0x01]
        let bus = ScriptedBus(replies: [[0x44], [0x03], [0x03], saturated])
        let clock = ManualClock()
        let reading = try TCS34725(bus: bus, settings: .init(gain: .fixed(.x1)), clock: clock)
            .read(waitingOn: clock)
        #expect(reading.isSaturated)
        #expect(reading.colour == nil)
    }
}
