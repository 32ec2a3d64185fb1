import AmbienceCore
import AmbienceTestSupport
import Testing

struct ThresholdsTests {
    @Test(arguments: [
        // (from, lux, expected): walk up past each rise, down past each fall, jumps allowed.
        (AmbienceState.invert, 5.0, AmbienceState.invert),
        (.invert, 15, .invert),  // inside the lower hysteresis band: stays
        (.invert, 20, .invert),  // at rise: not above it
        (.invert, 21, .regular),
        (.invert, 1001, .contrast),  // jumps a band
        (.regular, 9.9, .invert),
        (.regular, 10, .regular),  // at fall: not below it
        (.regular, 15, .regular),
        (.regular, 700, .regular),
        (.regular, 1000.5, .contrast),
        (.contrast, 600, .contrast),
        (.contrast, 499, .regular),
        (.contrast, 3, .invert),  // jumps a band down
        (.contrast, 15, .regular),  // below fall(regular|contrast) but inside the lower band
    ])
    func indicatedState(from state: AmbienceState, lux: Double, expected: AmbienceState) {
        #expect(testThresholds.indicated(from: state, lux: lux) == expected)
    }

    @Test(arguments: [
        (0.0, AmbienceState?.some(.invert)), (9.99, .invert), (10, nil), (20, nil), (20.01, .regular),
        (499, .regular), (500, nil), (1000, nil), (1000.01, .contrast), (1e6, .contrast),
    ])
    func unambiguousZones(lux: Double, expected: AmbienceState?) {
        #expect(testThresholds.unambiguousState(lux: lux) == expected)
    }

    @Test func rejectsFallNotBelowRise() {
        #expect(throws: ConfigurationError.self) {
            try Thresholds(
                invertRegular: Boundary(fall: 20, rise: 20), regularContrast: Boundary(fall: 500, rise: 1000))
        }
        do {
            _ = try Thresholds(
                invertRegular: Boundary(fall: 10, rise: 20), regularContrast: Boundary(fall: 900, rise: 800))
            Issue.record("accepted fall above rise")
        } catch {
            #expect(error.key == "regularContrast")
            #expect(error.message.contains("900") && error.message.contains("800"))
        }
    }

    @Test func rejectsOverlappingBoundaries() {
        do {
            _ = try Thresholds(
                invertRegular: Boundary(fall: 10, rise: 600), regularContrast: Boundary(fall: 500, rise: 1000)
            )
            Issue.record("accepted overlapping boundaries")
        } catch {
            #expect(error.key == "regularContrastFall")
            #expect(error.message.contains("strictly ordered"))
        }
    }

    @Test func rejectsNonFiniteValues() {
        #expect(throws: ConfigurationError.self) {
            try Thresholds(
                invertRegular: Boundary(fall: .nan, rise: 20),
                regularContrast: Boundary(fall: 500, rise: 1000))
        }
        #expect(throws: ConfigurationError.self) {
            try Thresholds(
                invertRegular: Boundary(fall: 10, rise: 20),
                regularContrast: Boundary(fall: 500, rise: .infinity))
        }
    }
}

struct EngineConfigurationTests {
    func configuration(
        tau: Double = 1, dwell: Double = 5, latency: Double = 12, interval: Double = 1,
        faultAfter: Double = 10
    )
        throws(ConfigurationError) -> EngineConfiguration
    {
        try EngineConfiguration(
            thresholds: testThresholds, timeConstant: tau, minimumDwell: dwell, latencyBound: latency,
            sampleInterval: interval, faultAfter: faultAfter)
    }

    @Test func acceptsLatencyOfExactly2DPlusP() throws {
        let accepted = try configuration(dwell: 5, latency: 11, interval: 1)
        #expect(accepted.latencyBound == 11)
    }

    @Test func rejectsLatencyBelow2DPlusPSayingWhy() {
        do {
            _ = try configuration(dwell: 5, latency: 10.5, interval: 1)
            Issue.record("accepted L < 2D + P")
        } catch {
            #expect(error.key == "latencyBound")
            #expect(
                error.message.contains("10.5") && error.message.contains("2D + P")
                    && error.message.contains("11"))
        }
    }

    @Test(arguments: [0.0, -1, .nan, .infinity])
    func rejectsNonPositiveTau(tau: Double) {
        #expect(
            throws: ConfigurationError(
                key: "timeConstant", message: "τ must be a positive number of seconds, not \(tau)")
        ) {
            try configuration(tau: tau)
        }
    }

    @Test func rejectsNegativeDwellAndBadInterval() {
        #expect(throws: ConfigurationError.self) { try configuration(dwell: -1) }
        #expect(throws: ConfigurationError.self) { try configuration(interval: 0) }
    }

    @Test func rejectsFaultAfterNotLongerThanTheInterval() {
        do {
            _ = try configuration(interval: 1, faultAfter: 1)
            Issue.record("accepted fault_after == P")
        } catch {
            #expect(error.key == "faultAfter")
        }
    }

    @Test func defaultsAreValidAndSuitAKiosk() {
        let defaults = EngineConfiguration.indoorKiosk
        #expect(defaults.latencyBound >= 2 * defaults.minimumDwell + defaults.sampleInterval)
        #expect(defaults.thresholds.unambiguousState(lux: 300) == .regular)  // an office
        #expect(defaults.thresholds.unambiguousState(lux: 5) == .invert)  // a dark room
        #expect(defaults.thresholds.unambiguousState(lux: 30_000) == .contrast)  // sunlight
    }
}
