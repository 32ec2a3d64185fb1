import AmbienceCore
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The driver reading an emulated OPT3001: accurate from 0.1 lux to the top of the range,
/// saturation flagged beyond it, ranging left to the chip (so the driver never switches or
/// hunts), and a replugged chip set up again.
@Suite struct OPT3001EmulatorTests {
    /// Configuration writes the driver made: each would restart a conversion.
    static func configurationWrites(_ bus: MockI2CBus) -> Int {
        bus.writes.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x01 }.count
    }

    /// Floored counts lose at most one LSB of the range the chip picked, which holds the light
    /// in its upper half above 40.95 lux; 100 ms conversions resolve no finer than 0.08 lux.
    static func tolerance(_ lux: Double, _ time: OPT3001.ConversionTime) -> Double {
        lux / 2048 + (time == .ms100 ? 0.08 : 0.01) + 1e-9
    }

    @Test(arguments: OPT3001.ConversionTime.allCases)
    func automaticRangeFromADecilluxToTheTop(time: OPT3001.ConversionTime) throws {
        for light in luxGrid + [83_000] {
            let clock = ManualClock()
            let bus = MockI2CBus(clock: clock)
            let chip = OPT3001Emulator { _ in light }
            bus.attach(chip, at: 0x44)
            let sensor = OPT3001(bus: bus, settings: .init(conversionTime: time), clock: clock)

            let reading = try sensor.read(waitingOn: clock)

            if light <= 83_865.6 {
                #expect(!reading.isSaturated, "\(light) lux")
                #expect(reading.lux <= light + 1e-9, "counts are floored: \(light) lux")
                #expect(light - reading.lux <= Self.tolerance(light, time), "\(light) lux: \(reading.lux)")
            } else {
                #expect(reading.isSaturated, "\(light) lux")
                #expect(abs(reading.lux - 83_865.6) < 1e-6, "a lower bound, the top of the range")
            }
            #expect(Self.configurationWrites(bus) == 1)
            #expect(chip.protocolViolations.isEmpty)
        }
    }

    @Test func aFixedRangeSaturatesAboveItsFullScale() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let lamp = Lamp(300)
        bus.attach(OPT3001Emulator { _ in lamp.lux }, at: 0x45)
        let range = try #require(OPT3001.FullScale(number: 4))  // 655.2 lux
        let sensor = OPT3001(bus: bus, address: 0x45, settings: .init(range: .fixed(range)), clock: clock)

        let below = try sensor.read(waitingOn: clock)
        lamp.lux = 1000
        clock.advance(by: 2)
        let above = try sensor.read(waitingOn: clock)

        #expect(!below.isSaturated && abs(below.lux - 300) <= 0.16)
        #expect(above.isSaturated && abs(above.lux - 655.2) < 1e-9)
    }

    @Test func aSlowChipIsWaitedForWithoutBeingSetUpAgain() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        // The datasheet's slowest: 880 ms for 800.
        let chip = OPT3001Emulator(slowness: 0.1) { _ in 500 }
        bus.attach(chip, at: 0x44)
        let sensor = OPT3001(bus: bus, clock: clock)
        for _ in 0..<20 {
            let reading = try sensor.read(waitingOn: clock)
            #expect(abs(reading.lux - 500) <= Self.tolerance(500, .ms800))
            clock.advance(by: 0.3)
        }
        #expect(Self.configurationWrites(bus) == 1)
    }

    /// 0.1 → 83 000 → 0.1 lux in 5 % steps, a second apart.
    static let ramp: [Double] = {
        let up = (0...277).map { 0.1 * pow(1.05, Double($0)) }.filter { $0 <= 83_000 }
        return up + up.reversed()
    }()

    @Test(arguments: OPT3001.ConversionTime.allCases)
    func aRampUpAndDownSettlesWithoutHunting(time: OPT3001.ConversionTime) throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let lamp = Lamp(Self.ramp[0])
        let chip = OPT3001Emulator { _ in lamp.lux }
        bus.attach(chip, at: 0x44)
        let sensor = OPT3001(bus: bus, settings: .init(conversionTime: time), clock: clock)
        var ranges: [UInt8] = []
        for (step, lux) in Self.ramp.enumerated() {
            lamp.lux = lux
            clock.advance(by: 1)
            let reading = try sensor.read(waitingOn: clock)
            #expect(!reading.isSaturated)
            #expect(abs(reading.lux - lux) <= Self.tolerance(lux, time), "step \(step): \(reading.lux)")
            ranges.append(try #require(sensor.range).number)
        }
        // Up the ramp the range only rises, down it only falls: each boundary crossed once.
        let half = Self.ramp.count / 2
        #expect(zip(ranges[..<half], ranges[1..<half]).allSatisfy { $0 <= $1 })
        #expect(zip(ranges[half...], ranges[(half + 1)...]).allSatisfy { $0 >= $1 })
        #expect(ranges.first == 0 && ranges.max() == 11 && ranges.last == 0)
        #expect(Self.configurationWrites(bus) == 1, "the driver never changes the range itself")
        #expect(chip.retakenConversions > 0, "rises outgrew the range and were retaken")
        #expect(chip.protocolViolations.isEmpty)
    }

    @Test(arguments: [0.3, 40.0, 650, 2600, 41_000])
    func aWobbleOfAQuarterNeverMakesTheDriverSwitch(level: Double) throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let lamp = Lamp(level)
        bus.attach(OPT3001Emulator { _ in lamp.lux }, at: 0x44)
        let sensor = OPT3001(bus: bus, clock: clock)
        _ = try sensor.read(waitingOn: clock)
        for step in 0..<200 {
            lamp.lux = level * (1 + 0.25 * sin(Double(step)))
            clock.advance(by: 1)
            let reading = try sensor.read(waitingOn: clock)
            #expect(abs(reading.lux - lamp.lux) <= Self.tolerance(lamp.lux, .ms800), "step \(step)")
        }
        #expect(Self.configurationWrites(bus) == 1, "no range switch from the driver, ever")
    }

    @Test func unplugThenReplugIsAFaultThenAFreshSetUp() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = OPT3001Emulator { _ in 300 }
        bus.attach(chip, at: 0x46)
        let sensor = OPT3001(bus: bus, address: 0x46, clock: clock)
        _ = try sensor.read(waitingOn: clock)

        bus.unplug(0x46)
        clock.advance(by: 1)
        var failure: SensorError?
        do { _ = try sensor.read(waitingOn: clock) } catch { failure = error }
        let error = try #require(failure)
        guard case .bus(let busError) = error.kind else {
            Issue.record("\(error)")
            return
        }
        #expect(busError.kind == .notAcknowledged)
        #expect(error.sensor == "OPT3001 at mock-i2c 0x46")

        bus.replug(0x46)
        #expect(!chip.isConverting, "a replugged chip starts shut down")
        clock.advance(by: 10)
        let reading = try sensor.read(waitingOn: clock)

        #expect(abs(reading.lux - 300) <= Self.tolerance(300, .ms800))
        #expect(chip.configuration & 0xFE00 == 0xCC00)
        #expect(Self.configurationWrites(bus) == 2)
        #expect(chip.protocolViolations.isEmpty)
    }

    @Test func aReplugBetweenReadsIsNoticedByTheShutDownMode() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = OPT3001Emulator { _ in 1234 }
        bus.attach(chip, at: 0x44)
        let sensor = OPT3001(bus: bus, clock: clock)
        _ = try sensor.read(waitingOn: clock)

        bus.unplug(0x44)
        bus.replug(0x44)
        clock.advance(by: 1)
        let reading = try sensor.read(waitingOn: clock)

        #expect(abs(reading.lux - 1234) <= Self.tolerance(1234, .ms800))
        #expect(chip.isConverting)
        #expect(Self.configurationWrites(bus) == 2)
    }

    @Test func emulatorPowerOnDefaultsAndBigEndianRegisters() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = OPT3001Emulator { _ in 100 }
        bus.attach(chip, at: 0x44)
        #expect(try bus.writeThenRead([0x01], readCount: 2, address: 0x44) == [0xC8, 0x10])
        #expect(try bus.writeThenRead([0x03], readCount: 2, address: 0x44) == [0xBF, 0xFF])
        #expect(try bus.writeThenRead([0x7E], readCount: 2, address: 0x44) == [0x54, 0x49])
        #expect(try bus.writeThenRead([0x7F], readCount: 2, address: 0x44) == [0x30, 0x01])
        clock.advance(by: 5)
        #expect(try bus.writeThenRead([0x00], readCount: 2, address: 0x44) == [0x00, 0x00], "shut down")
        // Single-shot at 100 ms in range 2: one conversion, then back to shutdown with CRF set.
        try bus.write([0x01, 0x22, 0x10], to: 0x44)
        clock.advance(by: 0.099)
        #expect(try bus.writeThenRead([0x01], readCount: 2, address: 0x44) == [0x22, 0x10])
        clock.advance(by: 0.002)
        #expect(try bus.writeThenRead([0x01], readCount: 2, address: 0x44) == [0x20, 0x90])
        #expect(try bus.writeThenRead([0x01], readCount: 2, address: 0x44) == [0x20, 0x10], "CRF cleared")
        // 100 lux at 100 ms: 0.08 lux steps in range 2 (0.04 per count): 1250 × 0.08 → R 2500.
        #expect(chip.result == 0x2000 | 2500)
        // The same under automatic range: the light outgrows range 0, so the conversion is
        // retaken and ends a conversion later.
        try bus.write([0x01, 0xC2, 0x10], to: 0x44)
        clock.advance(by: 0.101)
        #expect(try bus.writeThenRead([0x01], readCount: 2, address: 0x44) == [0xC2, 0x10])
        clock.advance(by: 0.1)
        #expect(try bus.writeThenRead([0x01], readCount: 2, address: 0x44) == [0xC0, 0x90])
        #expect(chip.result == 0x2000 | 2500)
        #expect(chip.retakenConversions == 1)
        try bus.write([0x01, 0x00], to: 0x44)
        #expect(chip.protocolViolations.count == 1)
    }
}
