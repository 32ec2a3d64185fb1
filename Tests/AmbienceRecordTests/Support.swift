import AmbienceCore

// The engine configuration AmbienceCoreTests' hand-written traces use (its Support.swift), so
// that the record's replays here are read against the same thresholds.

/// Thresholds used by hand-written tests: invert below 10, contrast above 1000 (from regular).
let testThresholds = try! Thresholds(
    invertRegular: Boundary(fall: 10, rise: 20), regularContrast: Boundary(fall: 500, rise: 1000))

func testConfiguration(
    tau: Double = 1, dwell: Double = 5, latency: Double = 12, interval: Double = 1, faultAfter: Double = 10
) -> EngineConfiguration {
    try! EngineConfiguration(
        thresholds: testThresholds, timeConstant: tau, minimumDwell: dwell, latencyBound: latency,
        sampleInterval: interval, faultAfter: faultAfter)
}
