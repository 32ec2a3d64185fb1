import AmbienceSensors
import Testing

/// The TSL2591 lux formula, written again from ams' application note and Adafruit's library,
/// without the driver's code: counts per lux = ATIME(ms) × AGAIN / 408, with AGAIN 1, 25, 428,
/// 9876, and lux = (C0 − C1)(1 − C1/C0) / CPL; 0 when there is no C0 or C1 ≥ C0.
enum TSL2591Reference {
    static let gainFactors: [Double] = [1, 25, 428, 9876]
    static let integrationMilliseconds: [Double] = [100, 200, 300, 400, 500, 600]

    static func lux(channel0: Int, channel1: Int, gainIndex: Int, milliseconds: Double) -> Double {
        if channel0 == 0 || channel1 >= channel0 { return 0 }
        let cpl = milliseconds * gainFactors[gainIndex] / 408.0
        let full = Double(channel0)
        let infrared = Double(channel1)
        return (full - infrared) * (1.0 - infrared / full) / cpl
    }

    /// Lux one count of C0 is worth at these settings, for a daylight share of infrared.
    static func luxPerCount(gainIndex: Int, milliseconds: Double) -> Double {
        408.0 / (milliseconds * gainFactors[gainIndex])
    }
}

@Suite struct TSL2591LuxTests {
    static let rawValues: [Int] = [
        0, 1, 2, 7, 31, 100, 333, 1000, 4321, 10000, 25000, 36863, 37888, 50000, 65535,
    ]

    @Test(arguments: TSL2591.Gain.allCases, TSL2591.IntegrationTime.allCases)
    func formulaMatchesTheReferenceOverAGridOfCounts(
        gain: TSL2591.Gain, integration: TSL2591.IntegrationTime
    ) {
        let gainIndex = [TSL2591.Gain.low, .medium, .high, .maximum].firstIndex(of: gain)!
        let milliseconds = 100.0 * Double(TSL2591.IntegrationTime.allCases.firstIndex(of: integration)! + 1)
        for channel0 in Self.rawValues {
            for channel1 in Self.rawValues {
                let expected = TSL2591Reference.lux(
                    channel0: channel0, channel1: channel1, gainIndex: gainIndex, milliseconds: milliseconds)
                let lux = TSL2591.lux(
                    channel0: UInt16(channel0), channel1: UInt16(channel1), gain: gain,
                    integrationTime: integration)
                #expect(
                    abs(lux - expected) <= expected * 1e-12,
                    "C0 \(channel0), C1 \(channel1) at \(gain), \(integration): \(lux) vs \(expected)")
            }
        }
    }

    @Test func aWorkedExampleByHand() {
        // C0 1000, C1 200 at 25x, 100 ms: CPL 2500/408, (800 × 0.8) × 408 / 2500 = 104.448 lux.
        let lux = TSL2591.lux(channel0: 1000, channel1: 200, gain: .medium, integrationTime: .ms100)
        #expect(abs(lux - 104.448) < 1e-9)
    }

    @Test func infraredOnlyLightAndDarknessGiveZero() {
        #expect(TSL2591.lux(channel0: 0, channel1: 0, gain: .low, integrationTime: .ms100) == 0)
        #expect(TSL2591.lux(channel0: 500, channel1: 500, gain: .high, integrationTime: .ms300) == 0)
        #expect(TSL2591.lux(channel0: 500, channel1: 900, gain: .maximum, integrationTime: .ms600) == 0)
    }

    @Test func registerEncodingsAndCeilingsFollowTheDatasheet() {
        #expect(TSL2591.Gain.allCases.map(\.factor) == [1, 25, 428, 9876])
        #expect(TSL2591.IntegrationTime.allCases.map(\.milliseconds) == [100, 200, 300, 400, 500, 600])
        #expect(
            TSL2591.IntegrationTime.allCases.map(\.fullScaleCount) == [37888]
                + Array(repeating: 65535, count: 5))
        #expect(TSL2591.IntegrationTime(milliseconds: 300) == .ms300)
        #expect(TSL2591.IntegrationTime(milliseconds: 250) == nil)
        #expect(TSL2591.GainSetting(parsing: "428x") == .fixed(.high))
        #expect(TSL2591.GainSetting(parsing: "max") == .fixed(.maximum))
        #expect(TSL2591.GainSetting(parsing: "auto") == .automatic)
        #expect(TSL2591.GainSetting(parsing: "16x") == nil)
    }
}
