/// Exponential moving average aware of uneven sample spacing:
/// `f += (1 - exp(-Δt/τ)) * (x - f)`. The first valid sample seeds it, and so does the first
/// one after more than 5τ without any, since the old value says nothing about the light by then.
public struct EMAFilter: Equatable, Sendable {
    public var timeConstant: Double
    public private(set) var value: Double?
    private var lastTime: Double = 0

    public init(timeConstant: Double) {
        self.timeConstant = timeConstant
    }

    /// Feeds one valid sample and returns the filtered value.
    @discardableResult
    public mutating func update(time: Double, lux: Double) -> Double {
        let elapsed = time - lastTime
        lastTime = time
        guard let previous = value, elapsed <= 5 * timeConstant else {
            value = lux
            return lux
        }
        let next = previous + (1 - PortableMath.exp(-elapsed / timeConstant)) * (lux - previous)
        value = next
        return next
    }

    /// Takes `value` as the filter's after the last sample: a reader that knows the value better
    /// than it can compute it (the compact record, after a value it could not predict).
    public mutating func replaceValue(with value: Double?) {
        self.value = value
    }
}
