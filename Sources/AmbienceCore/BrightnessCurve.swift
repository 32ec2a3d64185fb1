/// Lux → backlight percent: points interpolated on log10 lux (the eye's response to light is
/// closer to logarithmic than linear), held flat before the first point and after the last.
public struct BrightnessCurve: Equatable, Sendable {
    public struct Point: Equatable, Sendable {
        public var lux: Double
        public var percent: Double

        public init(lux: Double, percent: Double) {
            self.lux = lux
            self.percent = percent
        }
    }

    /// Sorted by lux, strictly increasing, every lux positive and every percent in 0...100.
    public let points: [Point]

    /// A dim screen in a dark room, full brightness in sunlight on the screen.
    public static let indoorKiosk = try! BrightnessCurve([
        Point(lux: 1, percent: 10), Point(lux: 50, percent: 35), Point(lux: 500, percent: 70),
        Point(lux: 5000, percent: 100),
    ])

    /// `key` names the curve in refusals (the owner maps it to the file's name).
    public init(_ points: [Point], key: String = "curve") throws(ConfigurationError) {
        guard !points.isEmpty else {
            throw ConfigurationError(key: key, message: "needs at least one [lux, percent] point")
        }
        for (index, point) in points.enumerated() {
            guard point.lux.isFinite, point.lux > 0 else {
                throw ConfigurationError(
                    key: key,
                    message: "point \(index + 1): lux must be a positive number (it is read on a log scale),"
                        + " not \(point.lux)")
            }
            guard point.percent.isFinite, point.percent >= 0, point.percent <= 100 else {
                throw ConfigurationError(
                    key: key, message: "point \(index + 1): percent must be 0 to 100, not \(point.percent)")
            }
            if index > 0, !(points[index - 1].lux < point.lux) {
                throw ConfigurationError(
                    key: key,
                    message: "point \(index + 1): lux \(point.lux) must be above the point before"
                        + " (\(points[index - 1].lux)): points go from dark to bright")
            }
        }
        self.points = points
    }

    /// The percent at `lux`; a level at or below zero reads as the first point.
    public func percent(lux: Double) -> Double {
        guard lux > 0 else { return points[0].percent }
        return percent(logLux: PortableMath.log10(lux))
    }

    /// The percent at log10 lux, interpolated linearly between the points around it.
    public func percent(logLux: Double) -> Double {
        guard let first = points.first, let last = points.last else { return 0 }
        if logLux <= PortableMath.log10(first.lux) { return first.percent }
        if logLux >= PortableMath.log10(last.lux) { return last.percent }
        var index = 1
        while PortableMath.log10(points[index].lux) < logLux { index += 1 }
        let low = points[index - 1]
        let high = points[index]
        let lowLog = PortableMath.log10(low.lux)
        let fraction = (logLux - lowLog) / (PortableMath.log10(high.lux) - lowLog)
        return low.percent + fraction * (high.percent - low.percent)
    }

    /// log10 of the darkest and brightest points: the light outside them changes nothing.
    public var logLuxSpan: ClosedRange<Double> {
        PortableMath.log10(points[0].lux)...PortableMath.log10(points[points.count - 1].lux)
    }
}
