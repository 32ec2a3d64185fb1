import AmbienceI2C
import AmbienceSimulation
import AmbienceSystem
import Testing

/// The emulators behave like the datasheets, as seen through plain bus transfers.
@Suite struct EmulatorTests {
    @Test func tsl2561ConvertsOnlyWhenPoweredAndOnlyAtTheEndOfAnIntegration() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TSL2561Emulator { _ in 100 }
        bus.attach(chip, at: 0x39)
        #expect(try bus.readByteData(command: 0x8A, from: 0x39) == 0x50)
        #expect(try bus.readByteData(command: 0x81, from: 0x39) == 0x02, "TIMING after power-on reset")
        clock.advance(by: 1)
        #expect(try bus.readWordData(command: 0xAC, from: 0x39) == 0, "powered down: nothing converted")

        try bus.writeByteData(command: 0x81, value: 0x10, to: 0x39)  // 16x, 13.7 ms
        try bus.writeByteData(command: 0x80, value: 0x03, to: 0x39)
        #expect(try bus.readByteData(command: 0x80, from: 0x39) == 0x03)
        clock.advance(by: 0.013)
        #expect(try bus.readWordData(command: 0xAC, from: 0x39) == 0, "integration not finished")
        clock.advance(by: 0.001)
        // 100 lux of daylight (CH1/CH0 0.3) at 16x, 13.7 ms: 100 / 0.018912 × 11/322 = 180 counts.
        #expect(try bus.readWordData(command: 0xAC, from: 0x39) == 180)
        #expect(try bus.readWordData(command: 0xAE, from: 0x39) == 54)
        #expect(chip.protocolViolations.isEmpty)
    }

    @Test func tsl2561NewTimingAppliesFromTheNextIntegration() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TSL2561Emulator { _ in 100 }
        bus.attach(chip, at: 0x39)
        try bus.writeByteData(command: 0x81, value: 0x11, to: 0x39)  // 16x, 101 ms
        try bus.writeByteData(command: 0x80, value: 0x03, to: 0x39)
        clock.advance(by: 0.050)
        try bus.writeByteData(command: 0x81, value: 0x01, to: 0x39)  // 1x mid-integration
        clock.advance(by: 0.060)
        let first = try bus.readWordData(command: 0xAC, from: 0x39)
        clock.advance(by: 0.101)
        let second = try bus.readWordData(command: 0xAC, from: 0x39)
        #expect(first == 1330, "the integration in progress kept 16x")
        #expect(second == 83, "the next one used 1x")
    }

    @Test func tsl2561FlagsCommandBytesWithoutCMDAndWritesToReadOnlyRegisters() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TSL2561Emulator(package: .cs) { _ in 1 }
        bus.attach(chip, at: 0x39)
        try bus.write([0x0A], to: 0x39)
        try bus.writeByteData(command: 0x8A, value: 0x00, to: 0x39)
        #expect(chip.protocolViolations.count == 2)
        #expect(try bus.readByteData(command: 0x8A, from: 0x39) == 0x10, "CS package ID")
    }

    @Test func bh1750TakesANewMTregOnlyWithTheNextMeasurementCommand() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = BH1750Emulator { _ in 100 }
        bus.attach(chip, at: 0x23)
        try bus.write([0x01], to: 0x23)
        try bus.write([0x10], to: 0x23)
        clock.advance(by: 0.119)
        #expect(try bus.read(count: 2, from: 0x23) == [0, 0], "first result after 120 ms")
        clock.advance(by: 0.001)
        #expect(try bus.read(count: 2, from: 0x23) == [0, 120])
        try bus.write([0x44], to: 0x23)  // MTreg 138 = 0b100_01010
        try bus.write([0x6A], to: 0x23)
        clock.advance(by: 0.120)
        #expect(try bus.read(count: 2, from: 0x23) == [0, 120], "MTreg waits for a measurement command")
        try bus.write([0x11], to: 0x23)  // H-res2 with MTreg 138: 240 ms
        clock.advance(by: 0.240)
        #expect(try bus.read(count: 2, from: 0x23) == [0x01, 0xE0], "100 × 1.2 × 2 × 2 = 480")
        #expect(chip.protocolViolations.isEmpty)
    }

    @Test func bh1750OneTimeModePowersDownAndResetNeedsPower() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = BH1750Emulator { _ in 1000 }
        bus.attach(chip, at: 0x23)
        try bus.write([0x07], to: 0x23)
        #expect(chip.protocolViolations == ["reset (0x07) while powered down is ignored"])
        try bus.write([0x23], to: 0x23)  // one-time L-res
        clock.advance(by: 0.016)
        #expect(try bus.read(count: 2, from: 0x23) == [0x04, 0xB0], "1200 counts")
        #expect(!chip.isPoweredOn)
        try bus.write([0x01], to: 0x23)
        try bus.write([0x07], to: 0x23)
        #expect(try bus.read(count: 2, from: 0x23) == [0, 0], "reset clears the data register")
        try bus.write([0x99], to: 0x23)
        #expect(chip.protocolViolations.count == 2)
    }

    @Test func bh1750ReplugRestoresPowerOnDefaults() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = BH1750Emulator { _ in 10 }
        bus.attach(chip, at: 0x23)
        try bus.write([0x47], to: 0x23)
        try bus.write([0x7E], to: 0x23)
        #expect(chip.measurementTimeRegister == 254)
        bus.unplug(0x23)
        #expect(throws: I2CError.self) { try bus.read(count: 2, from: 0x23) }
        bus.replug(0x23)
        #expect(chip.measurementTimeRegister == 69)
        #expect(!chip.isPoweredOn)
    }
}
