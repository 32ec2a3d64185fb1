/// The brightness engine's own names for its values: the keys of its refusals.
public enum BrightnessField: String, CaseIterable, Sendable {
    case curve, curveInvert, curveRegular, curveContrast
    case minimum, maximum, timeConstant, dwell, deadband, rampRate
}

/// The curves, the clamp, the smoothing, the hysteresis and the ramp of `BrightnessEngine`,
/// validated together (docs/backlight.md has the defaults and why).
public struct BrightnessConfiguration: Equatable, Sendable {
    /// The curve used in every theme state that has none of its own.
    public let curve: BrightnessCurve
    /// A curve per theme state (a dark theme may want a dimmer screen); nil: `curve`.
    public let invertCurve: BrightnessCurve?
    public let regularCurve: BrightnessCurve?
    public let contrastCurve: BrightnessCurve?
    /// The light's percent is clamped to these (an override is not: it is someone's wish).
    public let minimum: Int
    public let maximum: Int
    /// τ of the moving average of log10 lux, seconds: five times the theme's default 2 s.
    public let timeConstant: Double
    /// D of brightness: the evidence a new level needs, and so the least time between two
    /// light-driven changes of the target.
    public let dwell: Double
    /// Half the width, in decades of lux, of the band around the level the target was set for
    /// inside which the light moves nothing.
    public let deadband: Double
    /// R: percent per second the output moves at most, one percent at a time.
    public let rampRate: Double

    /// τ 10 s, D 5 s, ±0.2 decades (the light may go from 0.63× to 1.58× of its level), 10 %/s.
    public static let indoorKiosk = try! BrightnessConfiguration()

    public init(
        curve: BrightnessCurve = .indoorKiosk, invertCurve: BrightnessCurve? = nil,
        regularCurve: BrightnessCurve? = nil, contrastCurve: BrightnessCurve? = nil, minimum: Int = 5,
        maximum: Int = 100, timeConstant: Double = 10, dwell: Double = 5, deadband: Double = 0.2,
        rampRate: Double = 10
    ) throws(ConfigurationError) {
        func require(_ holds: Bool, _ field: BrightnessField, _ message: String) throws(ConfigurationError) {
            if !holds { throw ConfigurationError(key: field.rawValue, message: message) }
        }
        try require(minimum >= 0 && minimum <= 100, .minimum, "must be 0 to 100 percent, not \(minimum)")
        try require(
            maximum >= 1 && maximum <= 100 && maximum >= minimum, .maximum,
            "must be 1 to 100 percent and at least min (\(minimum)), not \(maximum)")
        try require(
            timeConstant.isFinite && timeConstant > 0, .timeConstant,
            "τ must be a positive number of seconds, not \(timeConstant)")
        try require(dwell.isFinite && dwell >= 0, .dwell, "must be zero or more seconds, not \(dwell)")
        try require(
            deadband.isFinite && deadband >= 0 && deadband <= 2, .deadband,
            "must be 0 to 2 decades of lux (0.2: the light may move from 0.63× to 1.58×), not \(deadband)")
        try require(
            rampRate.isFinite && rampRate >= 0.1 && rampRate <= 1000, .rampRate,
            "must be 0.1 to 1000 percent per second, not \(rampRate)")
        self.curve = curve
        self.invertCurve = invertCurve
        self.regularCurve = regularCurve
        self.contrastCurve = contrastCurve
        self.minimum = minimum
        self.maximum = maximum
        self.timeConstant = timeConstant
        self.dwell = dwell
        self.deadband = deadband
        self.rampRate = rampRate
    }

    /// The curve for the theme's state; the default curve before there is one.
    public func curve(for state: AmbienceState?) -> BrightnessCurve {
        switch state {
        case .invert?: invertCurve ?? curve
        case .regular?: regularCurve ?? curve
        case .contrast?: contrastCurve ?? curve
        case nil: curve
        }
    }

    /// The light's percent at log10 lux in `state`, clamped to min and max and rounded.
    public func percent(logLux: Double, state: AmbienceState?) -> Int {
        let exact = curve(for: state).percent(logLux: logLux)
        return min(max(Int(exact.rounded()), minimum), maximum)
    }

    /// Every curve's darkest and brightest points: light beyond them changes no percent, so the
    /// engine reads it as the nearest end and a night at 0.01 lux is no further from dusk.
    public var logLuxSpan: ClosedRange<Double> {
        let spans = [curve, invertCurve, regularCurve, contrastCurve].compactMap { $0?.logLuxSpan }
        let low = spans.map { $0.lowerBound }.min() ?? 0
        let high = spans.map { $0.upperBound }.max() ?? 0
        return low...high
    }

    /// The promised bound on the time from a step of the light to a steady level more than
    /// `deadband` from the last one, sampled every `sampleInterval`, to the output showing that
    /// level's percent: D of evidence, seen at a sample up to P later, then the longest ramp.
    public func latencyBound(sampleInterval: Double) -> Double {
        dwell + sampleInterval + Double(maximum - minimum) / rampRate
    }
}
