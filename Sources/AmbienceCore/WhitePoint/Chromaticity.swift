/// A light's CIE 1931 XYZ tristimulus values (Y is its luminance, in the sensor's scale).
public struct Tristimulus: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Its colour without its brightness; nil for no light (or a sum that is not positive).
    public var chromaticity: Chromaticity? {
        let sum = x + y + z
        guard sum > 0, sum.isFinite else { return nil }
        return Chromaticity(x: x / sum, y: y / sum)
    }
}

/// A colour without its brightness: CIE 1931 xy, and CIE 1960 UCS uv, the plane in which
/// correlated colour temperature and Duv are distances.
public struct Chromaticity: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// From CIE 1960 UCS (u, v).
    public init(u: Double, v: Double) {
        let denominator = 2 * u - 8 * v + 4
        self.init(x: 3 * u / denominator, y: 2 * v / denominator)
    }

    /// CIE 1960 UCS (u, v).
    public var uv: (u: Double, v: Double) {
        let denominator = -2 * x + 12 * y + 3
        return (4 * x / denominator, 6 * y / denominator)
    }

    /// XYZ of this colour at luminance `luminance`.
    public func tristimulus(luminance: Double = 1) -> Tristimulus {
        Tristimulus(x: luminance * x / y, y: luminance, z: luminance * (1 - x - y) / y)
    }

    /// CIE standard illuminant D65, daylight at 6504 K, as sRGB defines it: the white of most
    /// displays.
    public static let d65 = Chromaticity(x: 0.3127, y: 0.3290)
}
