import AmbienceSensors
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The VEML7700's lux, written again from the datasheet (rev. 1.7, "Resolution and maximum
/// detection range") and the application note, independently of the driver's code.
enum VEML7700Reference {
    /// Lux per count, copied row by row from the datasheet's table: gain → (ms → lx/count).
    static let resolution: [Double: [Double: Double]] = [
        2: [800: 0.0042, 400: 0.0084, 200: 0.0168, 100: 0.0336, 50: 0.0672, 25: 0.1344],
        1: [800: 0.0084, 400: 0.0168, 200: 0.0336, 100: 0.0672, 50: 0.1344, 25: 0.2688],
        0.25: [800: 0.0336, 400: 0.0672, 200: 0.1344, 100: 0.2688, 50: 0.5376, 25: 1.0752],
        0.125: [800: 0.0672, 400: 0.1344, 200: 0.2688, 100: 0.5376, 50: 1.0752, 25: 2.1504],
    ]

    /// counts × resolution, and above 1000 lx the application note's polynomial
    /// a·L⁴ + b·L³ + c·L² + d·L with a = 6.0135e-13, b = −9.3924e-9, c = 8.1488e-5, d = 1.0023.
    static func lux(counts: Int, gain: Double, milliseconds: Double) -> Double {
        let linear = Double(counts) * resolution[gain]![milliseconds]!
        if linear <= 1000 { return linear }
        return 6.0135e-13 * pow(linear, 4) - 9.3924e-9 * pow(linear, 3) + 8.1488e-5 * pow(linear, 2) + 1.0023
            * linear
    }

    static let counts = [
        0, 1, 2, 3, 10, 99, 100, 101, 999, 1000, 1860, 4761, 5000, 9999, 10_000, 23_456, 65_534,
    ]
}

@Suite struct VEML7700LuxTests {
    static let allRanges: [VEML7700.Range] = VEML7700.Gain.allCases.flatMap { gain in
        VEML7700.IntegrationTime.allCases.map { VEML7700.Range(gain: gain, integrationTime: $0) }
    }

    @Test(arguments: allRanges)
    func resolutionMatchesTheDatasheetTable(range: VEML7700.Range) {
        let expected = VEML7700Reference.resolution[range.gain.factor]![range.integrationTime.milliseconds]!
        #expect(abs(range.luxPerCount - expected) < expected * 1e-12)
    }

    @Test(arguments: allRanges)
    func luxMatchesTheReferenceOverAGridOfCounts(range: VEML7700.Range) {
        for counts in VEML7700Reference.counts {
            let expected = VEML7700Reference.lux(
                counts: counts, gain: range.gain.factor, milliseconds: range.integrationTime.milliseconds)
            let lux = VEML7700.lux(counts: UInt16(counts), range: range)
            #expect(abs(lux - expected) <= expected * 1e-9, "\(counts) counts at \(range)")
        }
    }

    @Test(arguments: allRanges)
    func luxNeverFallsAsCountsRise(range: VEML7700.Range) {
        var previous = -1.0
        for counts in stride(from: 0, through: 65_534, by: 7) {
            let lux = VEML7700.lux(counts: UInt16(counts), range: range)
            #expect(lux >= previous, "\(counts) counts at \(range)")
            previous = lux
        }
    }

    @Test func theApplicationNotesOwnExampleChecksTheCoefficients() {
        // "a × (1500 lux)⁴ + b × (1500 lux)³ + c × (1500 lux)² + d × (1500 lux) = 1658 lux"
        #expect(abs(VEML7700.corrected(1500) - 1658) < 0.5)
        #expect(VEML7700.corrected(1000) == 1000, "linear up to 1000 lx")
        #expect(VEML7700.corrected(500) == 500)
    }

    @Test func maximumRangesMatchTheDatasheet() {
        // 2x, 800 ms reaches 275 lx; 1/8, 25 ms about 140 klx (linear counts).
        let finest = VEML7700.Range(gain: .x2, integrationTime: .ms800)
        let coarsest = VEML7700.Range(gain: .eighth, integrationTime: .ms25)
        #expect(abs(65_535 * finest.luxPerCount - 275.247) < 0.001)
        #expect(abs(65_535 * coarsest.luxPerCount - 140_926.464) < 0.001)
    }

    @Test func automaticRangesRunFromMostToLeastSensitiveAtMost4xApart() {
        let ranges = VEML7700.automaticRanges
        #expect(ranges.first == VEML7700.Range(gain: .x2, integrationTime: .ms800))
        #expect(ranges.last == VEML7700.Range(gain: .eighth, integrationTime: .ms25))
        for (finer, coarser) in zip(ranges, ranges.dropFirst()) {
            let ratio = coarser.luxPerCount / finer.luxPerCount
            #expect(ratio > 1.99 && ratio < 4.01, "\(finer) → \(coarser)")
        }
    }

    @Test func parsingSettings() {
        #expect(VEML7700.Gain(parsing: "1/8") == .eighth)
        #expect(VEML7700.Gain(parsing: "0.25") == .quarter)
        #expect(VEML7700.Gain(parsing: "2x") == .x2)
        #expect(VEML7700.Gain(parsing: "3x") == nil)
        #expect(VEML7700.IntegrationTime(milliseconds: 25) == .ms25)
        #expect(VEML7700.IntegrationTime(milliseconds: 800) == .ms800)
        #expect(VEML7700.IntegrationTime(milliseconds: 101) == nil)
        #expect(VEML7700.addresses == [0x10])
        #expect(VEML7700.defaultAddress == 0x10)
    }
}
