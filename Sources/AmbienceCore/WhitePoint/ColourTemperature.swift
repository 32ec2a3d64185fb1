/// A near-white light's correlated colour temperature (CCT): the temperature of the black body
/// whose colour is nearest it in CIE 1960 UCS, and Duv, its signed distance from that colour
/// there (positive above the Planckian locus, greenish; negative below, pinkish; as ANSI
/// C78.377 signs it).
///
/// The nearest point is found on Krystek's rational approximation of the Planckian locus (1985,
/// 1000 to 15,000 K), by a scan of mireds (10^6 / K) and a golden-section search around the
/// nearest of the scan. Tests/AmbienceCoreTests/ColourTemperatureTests.swift holds it to Ohno's
/// method on the CIE 1931 observer: within 0.6 mired up to 8000 K, 1.5 up to 14,000 K.
public struct ColourTemperature: Equatable, Sendable {
    public var kelvin: Double
    public var duv: Double

    public init(kelvin: Double, duv: Double) {
        self.kelvin = kelvin
        self.duv = duv
    }

    /// Lights farther than this from the Planckian locus are not white (ANSI C78.377 allows
    /// ±0.006 for a lamp; a red car's glare or a green wall's bounce is farther).
    public static let greatestWhiteDuv = 0.05
    public static let coolest = 15_000.0
    public static let warmest = 1_000.0

    /// Nil when the colour is not near-white: beyond 1000 to 15,000 K, or more than
    /// `greatestWhiteDuv` from the locus.
    public init?(_ chromaticity: Chromaticity) {
        let (u, v) = chromaticity.uv
        guard u.isFinite, v.isFinite else { return nil }
        func distanceSquared(_ mired: Double) -> Double {
            let point = Self.planckianUV(mired: mired)
            return (point.u - u) * (point.u - u) + (point.v - v) * (point.v - v)
        }
        let lowest = 1e6 / Self.coolest
        let highest = 1e6 / Self.warmest
        var nearest = lowest
        var mired = lowest
        while mired <= highest {
            if distanceSquared(mired) < distanceSquared(nearest) { nearest = mired }
            mired += Self.scanStep
        }
        var low = max(nearest - Self.scanStep, lowest)
        var high = min(nearest + Self.scanStep, highest)
        let ratio = 0.618_033_988_749_894_8  // (√5 - 1) / 2
        for _ in 0..<48 {  // 20 mireds × 0.618^48: below 10^-8 mired
            let left = high - ratio * (high - low)
            let right = low + ratio * (high - low)
            if distanceSquared(left) < distanceSquared(right) { high = right } else { low = left }
        }
        let best = (low + high) / 2
        // Nearest at an end of the span: the colour lies beyond it, redder or bluer than white.
        guard best > lowest + 1e-3, best < highest - 1e-3 else { return nil }
        let point = Self.planckianUV(mired: best)
        let ahead = Self.planckianUV(mired: best + 1e-3)
        // The locus runs to larger u as it warms; the normal turned towards larger v is "above".
        let (du, dv) = (ahead.u - point.u, ahead.v - point.v)
        let side = du * (v - point.v) - dv * (u - point.u)
        let distance = distanceSquared(best).squareRoot()
        guard distance <= Self.greatestWhiteDuv else { return nil }
        self.init(kelvin: 1e6 / best, duv: side < 0 ? -distance : distance)
    }

    private static let scanStep = 10.0

    /// UCS (u, v) of a black body at 10^6 / `mired` K: Krystek's approximation, within
    /// 1.6·10^-4 of the locus the CIE 1931 observer gives from 1000 to 15,000 K.
    public static func planckianUV(mired: Double) -> (u: Double, v: Double) {
        let t = 1e6 / mired
        let u =
            (0.860_117_757 + 1.541_182_54e-4 * t + 1.286_412_12e-7 * t * t)
            / (1 + 8.424_202_35e-4 * t + 7.081_451_63e-7 * t * t)
        let v =
            (0.317_398_726 + 4.228_062_45e-5 * t + 4.204_816_91e-8 * t * t)
            / (1 - 2.897_418_16e-5 * t + 1.614_560_53e-7 * t * t)
        return (u, v)
    }

    /// McCamy's cubic in xy (1992): quick, within a few kelvin of the nearest-point method
    /// from 2856 K (illuminant A) to 6504 K (D65), and worse away from them.
    public static func mcCamy(_ chromaticity: Chromaticity) -> Double {
        let n = (chromaticity.x - 0.3320) / (0.1858 - chromaticity.y)
        return 449 * n * n * n + 3525 * n * n + 6823.3 * n + 5520.33
    }

    /// xy of CIE daylight at `kelvin` (the D illuminants' locus, defined from 4000 to 25,000 K):
    /// D65 is its point at 6504 K.
    public static func daylight(kelvin: Double) -> Chromaticity {
        let t = min(max(kelvin, 4000), 25_000)
        let x =
            t <= 7000
            ? -4.6070e9 / (t * t * t) + 2.9678e6 / (t * t) + 0.09911e3 / t + 0.244_063
            : -2.0064e9 / (t * t * t) + 1.9018e6 / (t * t) + 0.24748e3 / t + 0.237_040
        return Chromaticity(x: x, y: -3 * x * x + 2.87 * x - 0.275)
    }
}
