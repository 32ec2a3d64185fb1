import AmbienceCore

/// Thresholds used by hand-written tests: invert below 10, contrast above 1000 (from regular).
public let testThresholds = try! Thresholds(
    invertRegular: Boundary(fall: 10, rise: 20), regularContrast: Boundary(fall: 500, rise: 1000))

/// The engine configuration the hand-written traces of the core's and the record's tests use, so
/// that both read their replays against the same thresholds and timing.
public func testConfiguration(
    tau: Double = 1, dwell: Double = 5, latency: Double = 12, interval: Double = 1, faultAfter: Double = 10
) -> EngineConfiguration {
    try! EngineConfiguration(
        thresholds: testThresholds, timeConstant: tau, minimumDwell: dwell, latencyBound: latency,
        sampleInterval: interval, faultAfter: faultAfter)
}
