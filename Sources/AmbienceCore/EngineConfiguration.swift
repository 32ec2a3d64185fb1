/// The engine's own names for its values: the keys of its refusals.
public enum EngineField: String, CaseIterable, Sendable {
    case invertRegular, invertRegularFall, invertRegularRise
    case regularContrast, regularContrastFall, regularContrastRise
    case timeConstant, minimumDwell, latencyBound, sampleInterval, faultAfter
}

/// Thresholds and timing for the engine, validated together since the guarantees depend
/// on how they relate: the latency bound L must leave room for one dwell D to end, one more D
/// of evidence, and one sample interval P (L ≥ 2D + P).
public struct EngineConfiguration: Equatable, Sendable {
    public let thresholds: Thresholds
    /// τ of the moving average, seconds.
    public let timeConstant: Double
    /// D: the least time between two light-driven switches, and the evidence a switch needs.
    public let minimumDwell: Double
    /// L: the promised bound on the time to reach the state of an unambiguous light level.
    public let latencyBound: Double
    /// P: the nominal time between samples.
    public let sampleInterval: Double
    /// No valid sample for this long is a sensor fault.
    public let faultAfter: Double

    /// The defaults, chosen for an indoor kiosk sampling at 10 Hz.
    public static let indoorKiosk = try! EngineConfiguration(
        thresholds: .indoorKiosk, timeConstant: 2, minimumDwell: 5, latencyBound: 12,
        sampleInterval: 0.1, faultAfter: 5)

    public init(
        thresholds: Thresholds, timeConstant: Double, minimumDwell: Double, latencyBound: Double,
        sampleInterval: Double, faultAfter: Double
    ) throws(ConfigurationError) {
        guard timeConstant.isFinite, timeConstant > 0 else {
            throw ConfigurationError(
                key: EngineField.timeConstant.rawValue,
                message: "τ must be a positive number of seconds, not \(timeConstant)")
        }
        guard minimumDwell.isFinite, minimumDwell >= 0 else {
            throw ConfigurationError(
                key: EngineField.minimumDwell.rawValue,
                message: "D must be zero or more seconds, not \(minimumDwell)")
        }
        guard sampleInterval.isFinite, sampleInterval > 0 else {
            throw ConfigurationError(
                key: EngineField.sampleInterval.rawValue,
                message: "P must be a positive number of seconds, not \(sampleInterval)")
        }
        guard latencyBound.isFinite, latencyBound >= 2 * minimumDwell + sampleInterval else {
            throw ConfigurationError(
                key: EngineField.latencyBound.rawValue,
                message:
                    "L (\(latencyBound) s) must be at least 2D + P = 2 × \(minimumDwell) + \(sampleInterval)"
                    + " = \(2 * minimumDwell + sampleInterval) s: a switch may wait out one dwell,"
                    + " then needs D of evidence, seen at samples P apart")
        }
        guard faultAfter.isFinite, faultAfter > sampleInterval else {
            throw ConfigurationError(
                key: EngineField.faultAfter.rawValue,
                message: "the wait before a fault (\(faultAfter) s) must be longer than the sample interval P"
                    + " (\(sampleInterval) s), or every ordinary wait for a sample would be a fault")
        }
        self.thresholds = thresholds
        self.timeConstant = timeConstant
        self.minimumDwell = minimumDwell
        self.latencyBound = latencyBound
        self.sampleInterval = sampleInterval
        self.faultAfter = faultAfter
    }
}
