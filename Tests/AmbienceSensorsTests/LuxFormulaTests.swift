import AmbienceSensors
import Testing

/// The drivers' lux against values written from the datasheets, on grids of raw readings.
@Suite struct LuxFormulaTests {
    /// Worked by hand from the datasheet formula (16x, 402 ms unless scaled).
    @Test(arguments: [
        (1000, 200, TSL2561.Package.tFnCl, 23.886211045078653),  // ratio 0.2: 0.0304·CH0 − 0.062·CH0·0.2^1.4
        (1000, 550, .tFnCl, 5.35),  // 0.0224·1000 − 0.031·550
        (1000, 700, .tFnCl, 2.09),  // 0.0128·1000 − 0.0153·700
        (1000, 1000, .tFnCl, 0.34),  // 0.00146·1000 − 0.00112·1000
        (1000, 1400, .tFnCl, 0),  // ratio above 1.3
        (1000, 200, .cs, 25.269876047954263),
        (1000, 600, .cs, 5.44),
        (1000, 700, .cs, 3.10),
        (1000, 1000, .cs, 0.78),
        (0, 0, .cs, 0),
    ])
    func workedExamples(channel0: UInt16, channel1: UInt16, package: TSL2561.Package, lux: Double) {
        let computed = TSL2561.lux(
            channel0: channel0, channel1: channel1, gain: .x16, integrationTime: .ms402, package: package)
        #expect(abs(computed - lux) < 1e-9)
    }

    @Test func gainAndIntegrationScaleTheCounts() {
        // 1x at 13.7 ms: counts × 16 × 322/11; 16x at 101 ms: × 322/81.
        let short = TSL2561.lux(
            channel0: 100, channel1: 30, gain: .x1, integrationTime: .ms13point7, package: .tFnCl)
        #expect(abs(short - 885.6243121136956) < 1e-6)
        let medium = TSL2561.lux(
            channel0: 3000, channel1: 900, gain: .x1, integrationTime: .ms101, package: .tFnCl)
        #expect(abs(medium - 3608.099049352092) < 1e-6)
        let cs = TSL2561.lux(
            channel0: 20000, channel1: 6000, gain: .x1, integrationTime: .ms402, package: .cs)
        #expect(abs(cs - 6562.983317889837) < 1e-6)
    }

    static let tslSettings: [(TSL2561.Gain, TSL2561.IntegrationTime, TSL2561.Package)] = [
        TSL2561.Gain.x1, .x16,
    ].flatMap { gain in
        TSL2561.IntegrationTime.allCases.flatMap { time in [(gain, time, .tFnCl), (gain, time, .cs)] }
    }

    /// Every CH0 in steps over the integration's range, every CH1/CH0 from 0 to 1.4 by 0.01:
    /// equal to the datasheet formula, and within the integer approximation's own error of the
    /// datasheet's fixed-point algorithm (1 lux of rounding plus 0.05 % of the scaled CH0).
    @Test(arguments: tslSettings)
    func tsl2561AgreesWithTheDatasheetOverTheGrid(
        gain: TSL2561.Gain, integration: TSL2561.IntegrationTime, package: TSL2561.Package
    ) {
        let milliseconds = integration == .ms13point7 ? 13.7 : integration == .ms101 ? 101 : 402
        let scale =
            (gain == .x1 ? 16 : 1) * (milliseconds == 402 ? 1 : milliseconds == 101 ? 322.0 / 81 : 322.0 / 11)
        let top = Int(integration.fullScaleCount)
        var checked = 0
        for channel0 in stride(from: 0, through: top, by: max(1, top / 97)) {
            for hundredths in 0...140 {
                let channel1 = min(top, channel0 * hundredths / 100)
                let lux = TSL2561.lux(
                    channel0: UInt16(channel0), channel1: UInt16(channel1), gain: gain,
                    integrationTime: integration, package: package)
                let reference = Reference.tsl2561Lux(
                    channel0: channel0, channel1: channel1, gain16: gain == .x16, milliseconds: milliseconds,
                    csPackage: package == .cs)
                let integer = Reference.tsl2561IntegerLux(
                    channel0: channel0, channel1: channel1, gain16: gain == .x16, milliseconds: milliseconds,
                    csPackage: package == .cs)
                if abs(lux - reference) > 1e-9 * max(1, reference) {
                    Issue.record("CH0 \(channel0) CH1 \(channel1): \(lux) lux, datasheet \(reference)")
                    return
                }
                if abs(lux - Double(integer)) > 1 + 0.0005 * Double(channel0) * scale {
                    Issue.record("CH0 \(channel0) CH1 \(channel1): \(lux) lux, integer algorithm \(integer)")
                    return
                }
                #expect(lux >= 0)
                checked += 1
            }
        }
        #expect(checked > 10_000)
    }

    @Test(arguments: BH1750.Mode.allCases, [31, 69, 100, 138, 200, 254])
    func bh1750AgreesWithTheDatasheetOverTheGrid(mode: BH1750.Mode, mtreg: Int) {
        for counts in stride(from: 0, through: 65535, by: 97) {
            let lux = BH1750.lux(counts: UInt16(counts), mode: mode, measurementTime: UInt8(mtreg))
            let reference = Reference.bh1750Lux(counts: counts, mtreg: mtreg, mode2: mode == .high2)
            #expect(abs(lux - reference) <= 1e-9 * max(1, reference))
        }
        #expect(abs(BH1750.lux(counts: 65535, mode: .high, measurementTime: 69) - 54612.5) < 1e-9)
    }

    @Test func bh1750WorkedExamples() {
        // Datasheet example: H-res, 0x83 0x90 = 33680 counts → 28067 lx.
        #expect(abs(BH1750.lux(counts: 0x8390, mode: .high, measurementTime: 69) - 28066.67) < 0.01)
        // MTreg 254, H-res2: one count is 0.11 lx (the datasheet's finest resolution).
        #expect(abs(BH1750.lux(counts: 1, mode: .high2, measurementTime: 254) - 0.1132) < 0.0001)
        // MTreg 31, H-res: 65535 counts reach 121 557 lx.
        #expect(abs(BH1750.lux(counts: 65535, mode: .high, measurementTime: 31) - 121_557) < 1)
    }
}
