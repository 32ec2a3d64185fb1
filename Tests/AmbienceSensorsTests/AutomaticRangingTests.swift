import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Automatic gain and ranging follow the light without hunting: one switch per crossing of the
/// band, none while the light wanders inside it.
@Suite struct AutomaticRangingTests {
    /// 1 → 100 000 → 1 lux in 5 % steps, each reached before the next read.
    static let ramp: [Double] = {
        let up = (0...236).map { pow(1.05, Double($0)) }
        return up + up.reversed()
    }()

    @Test(arguments: TSL2561.IntegrationTime.allCases)
    func tsl2561GainSwitchesOnceEachWayOverARamp(integration: TSL2561.IntegrationTime) throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let lamp = Lamp(1)
        bus.attach(TSL2561Emulator { _ in lamp.lux }, at: 0x39)
        let sensor = TSL2561(bus: bus, settings: .init(integrationTime: integration), clock: clock)
        var gains: [TSL2561.Gain] = []
        var switchUpLux: Double?
        var switchDownLux: Double?
        for (index, lux) in Self.ramp.enumerated() {
            lamp.lux = lux
            clock.advance(by: 1)
            let reading = try sensor.read(waitingOn: clock)
            if let last = gains.last, last != sensor.gain {
                if sensor.gain == .x1 { switchUpLux = lux } else { switchDownLux = lux }
            }
            gains.append(sensor.gain)
            if !reading.isSaturated {
                // Within 5 %, or a few counts' worth where there are few counts.
                let milliseconds = integration == .ms13point7 ? 13.7 : integration == .ms101 ? 101 : 402
                let luxPerCount =
                    Reference.tsl2561Lux(
                        channel0: 1000, channel1: 300, gain16: sensor.gain == .x16,
                        milliseconds: milliseconds,
                        csPackage: false) / 1000
                #expect(
                    abs(reading.lux - lux) <= lux * 0.05 + 3 * luxPerCount, "step \(index): \(reading.lux)")
            }
        }
        let switches = zip(gains, gains.dropFirst()).filter { $0 != $1 }.count
        #expect(switches == 2)
        #expect(gains.first == .x16 && gains.last == .x16)
        let up = try #require(switchUpLux)
        let down = try #require(switchDownLux)
        #expect(up > 1.8 * down, "hysteresis band: 1x from \(up) lux, 16x again below \(down) lux")
    }

    @Test func tsl2561HoldsItsGainWhileTheLightWandersInsideTheBand() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let lamp = Lamp(1)
        bus.attach(TSL2561Emulator { _ in lamp.lux }, at: 0x39)
        let sensor = TSL2561(bus: bus, settings: .init(integrationTime: .ms402), clock: clock)
        // 16x at 402 ms leaves for 1x near 1100 lux (90 % of full scale) and comes back near
        // 550; ±20 % around 800 lux stays in between whichever gain it starts with.
        for start in [300.0, 3000] {
            lamp.lux = start
            _ = try sensor.read(waitingOn: clock)
            let gain = sensor.gain
            for step in 0..<200 {
                lamp.lux = 800 * (1 + 0.2 * sin(Double(step)))
                clock.advance(by: 1)
                _ = try sensor.read(waitingOn: clock)
                #expect(sensor.gain == gain, "step \(step) from \(start) lux")
            }
        }
    }

    @Test func bh1750RangesOnceEachWayPerBoundaryOverARamp() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let lamp = Lamp(1)
        let chip = BH1750Emulator { _ in lamp.lux }
        bus.attach(chip, at: 0x23)
        let sensor = BH1750(bus: bus, settings: .automatic, clock: clock)
        var ranges: [String] = []
        for lux in Self.ramp {
            lamp.lux = lux
            clock.advance(by: 1)
            let reading = try sensor.read(waitingOn: clock)
            #expect(!reading.isSaturated, "\(lux) lux")
            #expect(abs(reading.lux - lux) <= lux * 0.01 + 0.12, "\(reading.lux) for \(lux)")
            ranges.append("\(sensor.mode) \(sensor.measurementTime)")
        }
        let changes = zip(ranges, ranges.dropFirst()).filter { $0 != $1 }.map { "\($0) → \($1)" }
        #expect(
            changes == [
                "H-res2 254 → H-res 69", "H-res 69 → H-res 31", "H-res 31 → H-res 69",
                "H-res 69 → H-res2 254",
            ])
        #expect(chip.protocolViolations.isEmpty)
    }

    @Test func bh1750HoldsItsRangeWhileTheLightWandersInsideTheBand() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let lamp = Lamp(1)
        bus.attach(BH1750Emulator { _ in lamp.lux }, at: 0x23)
        let sensor = BH1750(bus: bus, settings: .automatic, clock: clock)
        // H-res2/254 gives up near 6700 lux and is taken again below 3300: ±25 % around 4800.
        for start in [100.0, 20000] {
            lamp.lux = start
            _ = try sensor.read(waitingOn: clock)
            let range = (sensor.mode, sensor.measurementTime)
            for step in 0..<200 {
                lamp.lux = 4800 * (1 + 0.25 * sin(Double(step)))
                clock.advance(by: 1)
                _ = try sensor.read(waitingOn: clock)
                #expect(sensor.mode == range.0 && sensor.measurementTime == range.1, "step \(step)")
            }
        }
    }

    @Test func bh1750GoesFromDarkToSunlightInOneReadWithoutReportingSaturation() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let lamp = Lamp(0.5)
        bus.attach(BH1750Emulator { _ in lamp.lux }, at: 0x23)
        let sensor = BH1750(bus: bus, settings: .automatic, clock: clock)
        _ = try sensor.read(waitingOn: clock)
        #expect(sensor.mode == .high2 && sensor.measurementTime == 254)
        lamp.lux = 100_000
        clock.advance(by: 1)

        let reading = try sensor.read(waitingOn: clock)

        #expect(!reading.isSaturated)
        #expect(abs(reading.lux - 100_000) < 2)
        #expect(sensor.mode == .high && sensor.measurementTime == 31)
    }
}
