import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

/// Drivers reading emulated chips under steady light from 0.1 lux to 100 000 lux: where the chip
/// can measure, the lux is the datasheet formula of the counts the chip holds and is within the
/// counts' resolution of the light; where it cannot, the reading is flagged saturated and is a
/// positive lower bound, never 0.
@Suite struct EmulatorRangeTests {
    static let tslCases: [(TSL2561.Package, TSL2561.GainSetting, TSL2561.IntegrationTime)] = [
        TSL2561.Package.tFnCl, .cs,
    ].flatMap { package in
        [TSL2561.GainSetting.automatic, .fixed(.x1), .fixed(.x16)].flatMap { gain in
            TSL2561.IntegrationTime.allCases.map { (package, gain, $0) }
        }
    }

    @Test(arguments: tslCases)
    func tsl2561OverTheWholeRange(
        package: TSL2561.Package, gain: TSL2561.GainSetting, integration: TSL2561.IntegrationTime
    ) throws {
        let csPackage = package == .cs
        let milliseconds = integration == .ms13point7 ? 13.7 : integration == .ms101 ? 101 : 402
        // CH0 counts per lux at 16x and 402 ms for CH1/CH0 = 0.3, from the datasheet formula.
        let nominalCountsPerLux =
            1
            / Reference.tsl2561Lux(
                channel0: 1_000_000, channel1: 300_000, gain16: true, milliseconds: 402, csPackage: csPackage)
            * 1_000_000
        let timeFraction = milliseconds == 402 ? 1 : milliseconds == 101 ? 81.0 / 322 : 11.0 / 322
        let clip = milliseconds == 402 ? 65000 : milliseconds == 101 ? 37000 : 4900
        var measured = 0
        var saturated = 0
        for light in luxGrid {
            let clock = ManualClock()
            let bus = MockI2CBus(clock: clock)
            let chip = TSL2561Emulator(package: package, infraredRatio: 0.3) { _ in light }
            bus.attach(chip, at: 0x29)
            let sensor = TSL2561(
                bus: bus, address: 0x29, settings: .init(gain: gain, integrationTime: integration),
                clock: clock)

            let reading = try sensor.read(waitingOn: clock)

            // The gain the driver should end on: 16x unless that nears full scale (from 16x).
            let countsAt16x = light * nominalCountsPerLux * timeFraction
            let expectedGain: TSL2561.Gain
            switch gain {
            case .fixed(let fixed): expectedGain = fixed
            case .automatic:
                expectedGain =
                    countsAt16x.rounded(.down) >= 0.9 * Double(integration.fullScaleCount) ? .x1 : .x16
            }
            #expect(sensor.gain == expectedGain, "\(light) lux")
            let expectedChannel0 = min(
                Double(integration.fullScaleCount),
                (countsAt16x / (expectedGain == .x1 ? 16 : 1)).rounded(.down))
            let (channel0, channel1) = chip.channelCounts
            #expect(Double(channel0) == expectedChannel0, "\(light) lux")
            #expect(chip.protocolViolations.isEmpty)

            if Int(channel0) > clip || Int(channel1) > clip {
                saturated += 1
                #expect(reading.isSaturated, "\(light) lux")
                #expect(
                    reading.lux > 0 && reading.lux <= light * 1.0001, "\(light) lux: bound \(reading.lux)")
                // The bound: the CH0 read, for daylight's spectrum (CH1/CH0 0.3, as emulated),
                // so at least the light at which CH0 clips.
                let bound =
                    Reference.tsl2561Lux(
                        channel0: Int(channel0) * 1000, channel1: Int(channel0) * 300,
                        gain16: expectedGain == .x16,
                        milliseconds: milliseconds, csPackage: csPackage) / 1000
                #expect(abs(reading.lux - bound) <= bound * 1e-9, "\(light) lux")
                let clipLux =
                    Double(clip) / (nominalCountsPerLux * timeFraction / (expectedGain == .x1 ? 16 : 1))
                #expect(reading.lux >= clipLux * 0.999, "\(light) lux")
                continue
            }
            measured += 1
            #expect(!reading.isSaturated, "\(light) lux")
            let reference = Reference.tsl2561Lux(
                channel0: Int(channel0), channel1: Int(channel1), gain16: expectedGain == .x16,
                milliseconds: milliseconds, csPackage: csPackage)
            #expect(abs(reading.lux - reference) <= 1e-9 * max(1, reference), "\(light) lux")
            // Flooring each channel to whole counts is the only error: a few counts' worth.
            let luxPerCount = light / max(1, countsAt16x / (expectedGain == .x1 ? 16 : 1))
            #expect(abs(reading.lux - light) <= 3 * luxPerCount, "\(light) lux: read \(reading.lux)")
        }
        #expect(measured > 0)
        if gain == .automatic && integration == .ms13point7 {
            // 1x at 13.7 ms reaches beyond 40 000 lux in daylight.
            #expect(saturated <= 4)
        }
    }

    static let bh1750Cases: [(BH1750.ModeSetting, Int?)] =
        [(.automatic, nil)]
        + [BH1750.Mode.high, .high2, .low].flatMap { mode in
            [31, 69, 138, 254].map { (BH1750.ModeSetting.fixed(mode), $0) }
        }

    @Test(arguments: bh1750Cases)
    func bh1750OverTheWholeRange(mode: BH1750.ModeSetting, mtreg: Int?) throws {
        for light in luxGrid {
            let clock = ManualClock()
            let bus = MockI2CBus(clock: clock)
            let chip = BH1750Emulator { _ in light }
            bus.attach(chip, at: 0x5C)
            let sensor = BH1750(
                bus: bus, address: 0x5C, settings: try .init(mode: mode, measurementTime: mtreg), clock: clock
            )

            let reading = try sensor.read(waitingOn: clock)

            #expect(chip.protocolViolations.isEmpty)
            let usedMode = sensor.mode
            let usedMTreg = Int(sensor.measurementTime)
            if case .fixed(let fixed) = mode {
                #expect(usedMode == fixed)
                #expect(usedMTreg == mtreg)
            }
            #expect(chip.continuousMode == usedMode)
            #expect(chip.activeMeasurementTime.map(Int.init) == usedMTreg)
            // counts = lux × 1.2 × MTreg/69, × 2 in H-res2; L-res keeps multiples of 4.
            let exact = light * 1.2 * Double(usedMTreg) / 69 * (usedMode == .high2 ? 2 : 1)
            var counts = min(65535, Int(exact.rounded(.down)))
            if usedMode == .low && counts < 65535 { counts &= ~3 }
            #expect(Int(chip.dataRegister) == counts, "\(light) lux")
            let reference = Reference.bh1750Lux(counts: counts, mtreg: usedMTreg, mode2: usedMode == .high2)
            #expect(abs(reading.lux - reference) <= 1e-9 * max(1, reference), "\(light) lux")
            if counts == 65535 {
                #expect(reading.isSaturated, "\(light) lux")
                #expect(reading.lux > 0 && reading.lux <= light)
                continue
            }
            #expect(!reading.isSaturated, "\(light) lux")
            let luxPerCount = Reference.bh1750Lux(counts: 1, mtreg: usedMTreg, mode2: usedMode == .high2)
            #expect(
                abs(reading.lux - light) <= luxPerCount * (usedMode == .low ? 4 : 1) + 1e-9, "\(light) lux")

            if mode == .automatic {
                // Automatic ranging: never saturated up to 100 000 lux, and the finest
                // resolution (H-res2, MTreg 254: 0.11 lx) in the dark.
                if light < 3000 {
                    #expect(usedMode == .high2 && usedMTreg == 254, "\(light) lux")
                }
                if light > 60000 {
                    #expect(usedMode == .high && usedMTreg == 31, "\(light) lux")
                }
            }
        }
    }
}
