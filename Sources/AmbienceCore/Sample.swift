/// One attempt to read the sensor at a monotonic time in seconds; `lux` is nil when the read failed.
public struct Sample: Equatable, Sendable {
    public var time: Double
    public var lux: Double?

    public init(time: Double, lux: Double?) {
        self.time = time
        self.lux = lux
    }
}

/// What a sensor driver measured, with how it measured it.
public struct Reading: Equatable, Sendable {
    public var lux: Double
    /// The chip saturated: the light is at least `lux`, and possibly much brighter.
    public var isSaturated: Bool
    /// The light's colour, from a colour sensor whose channels were all in range; nil from
    /// the others.
    public var colour: Tristimulus?
    /// The chip settings used, for logs and `probe` (for example "gain 16x, 402 ms").
    public var settings: String

    public init(lux: Double, isSaturated: Bool = false, colour: Tristimulus? = nil, settings: String) {
        self.lux = lux
        self.isSaturated = isSaturated
        self.colour = colour
        self.settings = settings
    }
}
