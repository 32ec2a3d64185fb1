/// The transcendental functions the programs use, the same bits on every target we ship.
///
/// The C library's are not: glibc picks its code for the processor it runs on, and on an amd64
/// with FMA, an arm64 and a 32-bit Arm (whose VFP has no fused multiply-add) its `exp` and
/// `log10` round differently in the last bit of about one call in a thousand. The moving
/// average carries such a bit on (docs/every-pi.md, "Same bits on every architecture"). These
/// use only IEEE-754 additions, multiplications and divisions, each rounded alone, in
/// double-double (`DoubleDouble`) where a bit could be lost, and round once at the end: within
/// 0.51 ulp of the true value where the result is normal (0.5014 the worst of 160,000 inputs),
/// and 1 ulp where it is subnormal (Tests/AmbienceCoreTests/PortableMathTests.swift).
public enum PortableMath {
    /// e^x.
    public static func exp(_ x: Double) -> Double { exp(DoubleDouble(x)) }

    /// e^(x.high + x.low), for pow's y ln x, which a double alone would round.
    private static func exp(_ x: DoubleDouble) -> Double {
        if x.high.isNaN { return x.high }
        if x.high > 709.8 { return .infinity }  // past log(greatest double)
        if x.high < -745.2 { return 0 }  // below log(least subnormal / 2)
        // x = k ln2 + r, |r| ≤ ln2 / 2. k ln2High is exact (ln2High has 42 bits, k 11), and so
        // is x - k ln2High, the two being within a factor of two; r keeps its rounding error.
        let k = (x.high * inverseLn2 + roundingShift) - roundingShift
        let reduced = DoubleDouble.sum(x.high - k * ln2High, x.low - k * ln2Low)
        // e^r = 1 + r + r²/2 + r³/6 in double-double, + r⁴(1/4! + r/5! + … + r¹⁰/14!) in double:
        // below 0.06 % of the rest, and the next term below 2^-60.
        let r = reduced.high
        var series = 0.0
        for coefficient in expTaylorFromTheTop { series = coefficient + r * series }
        let square = reduced * reduced
        let power =
            (DoubleDouble(1) + reduced + DoubleDouble(square.high / 2, square.low / 2)
            + square * reduced * sixth + DoubleDouble(square.high * square.high * series)).rounded
        return scaled(power, byPowerOfTwo: Int(k))
    }

    /// log10(x): NaN below zero, -∞ at zero.
    public static func log10(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x == .infinity { return x }
        return (naturalLog(x) * log10OfE).rounded
    }

    /// x^y, as C's pow: every special case of C99's Annex F, and a negative base only with a
    /// whole exponent.
    public static func pow(_ x: Double, _ y: Double) -> Double {
        if y == 0 || x == 1 { return 1 }
        if x.isNaN || y.isNaN { return .nan }
        let parity = wholeNumberParity(y)
        let negative = x.sign == .minus && parity == .odd
        let magnitude: Double
        if x == 0 || x.isInfinite {
            // 0^y and ∞^y: 0 or ∞, by the signs of y and of the result.
            magnitude = (x == 0) == (y < 0) ? .infinity : 0
        } else if y.isInfinite {
            let base = abs(x)
            if base == 1 { return 1 }
            magnitude = (base > 1) == (y > 0) ? .infinity : 0
        } else {
            if x < 0 && parity == nil { return .nan }
            magnitude = exp(naturalLog(abs(x)) * DoubleDouble(y))
        }
        return negative ? -magnitude : magnitude
    }

    /// sin x for |x| < 2^20 (about a million), where its reduction by π/2 holds; NaN beyond.
    public static func sin(_ x: Double) -> Double {
        if !(abs(x) < 0x1p20) { return .nan }
        if x == 0 { return x }  // -0 stays -0
        // x = n π/2 + r, |r| ≤ π/4: π/2 in four parts, the first three of 33 bits, so n times
        // each is exact for |n| < 2^20, and x - n halfPi1 is exact beside x. 172 bits of π/2
        // keep r's relative error below 2^-69 even at the double nearest a multiple of π/2.
        let n = (x * twoOverPi + roundingShift) - roundingShift
        let r =
            DoubleDouble.sum(x - n * halfPi1, -(n * halfPi2)) + DoubleDouble(-(n * halfPi3))
            + DoubleDouble(-(n * halfPi4))
        switch Int64(n) & 3 {
        case 0: return sineNearZero(r)
        case 1: return cosineNearZero(r)
        case 2: return -sineNearZero(r)
        default: return -cosineNearZero(r)
        }
    }

    /// sin r for |r| ≤ π/4: r - r³/6 in double-double, the rest (below 0.4 % of it) in double.
    private static func sineNearZero(_ r: DoubleDouble) -> Double {
        let square = r * r
        let cube = square * r
        let z = square.high
        var series = 0.0
        for coefficient in sineSeriesFromTheTop { series = coefficient + z * series }
        return (r + cube * negativeSixth + DoubleDouble(cube.high * z * series)).rounded
    }

    /// cos r for |r| ≤ π/4: 1 - r²/2 + r⁴/24 in double-double, the rest (below 0.04 %) in double.
    private static func cosineNearZero(_ r: DoubleDouble) -> Double {
        let square = r * r
        let fourth = square * square
        let z = square.high
        var series = 0.0
        for coefficient in cosineSeriesFromTheTop { series = coefficient + z * series }
        let half = DoubleDouble(-square.high / 2, -square.low / 2)
        return (DoubleDouble(1) + half + fourth * twentyFourth + DoubleDouble(fourth.high * z * series))
            .rounded
    }

    /// Whether y is a whole number, and then odd or even; nil when it is not.
    private static func wholeNumberParity(_ y: Double) -> Parity? {
        if y.isInfinite { return nil }
        if abs(y) >= 0x1p53 { return .even }  // every double this large is even
        let whole = Int64(y)  // towards zero, without libm's trunc
        if Double(whole) != y { return nil }
        return whole & 1 == 1 ? .odd : .even
    }

    private enum Parity { case odd, even }

    /// ln x for a positive finite x, in double-double.
    private static func naturalLog(_ x: Double) -> DoubleDouble {
        // x = 2^e m, √½ ≤ m < √2 (subnormals are scaled into the normal range first).
        var bits = x.bitPattern
        var exponent = -1023
        if bits >> 52 == 0 {
            bits = (x * 0x1p54).bitPattern
            exponent -= 54
        }
        exponent += Int(bits >> 52)
        var m = Double(bitPattern: bits & significandMask | oneExponent)
        if m > 0x1.6a09e667f3bcdp0 {  // √2
            m /= 2
            exponent += 1
        }
        // ln m = 2 atanh s = 2s + 2s³/3 + s⁵(2/5 + 2s²/7 + …), s = f / (2 + f), f = m - 1 exact,
        // |s| < 0.172. s in double-double: its quotient's remainder recovers what the division
        // rounded off. 2s + 2s³/3 in double-double; the rest is below 0.02 % of it.
        let f = m - 1
        let denominator = DoubleDouble.sum(2, f)
        let sHigh = f / denominator.high
        let back = DoubleDouble.product(sHigh, denominator.high)
        let sLow = (((f - back.high) - back.low) - sHigh * denominator.low) / denominator.high
        let s = DoubleDouble(sHigh, sLow)
        let square = s * s
        let cube = square * s
        let z = square.high
        var series = 0.0
        for coefficient in atanhSeriesFromTheTop { series = coefficient + z * series }
        let lnM =
            DoubleDouble(2 * sHigh, 2 * sLow) + cube * twoThirds
            + DoubleDouble(cube.high * z * series)
        return DoubleDouble.product(ln2High, Double(exponent))
            + DoubleDouble(ln2Low * Double(exponent)) + lnM
    }

    /// value × 2^k with one rounding, also when the result is subnormal or overflows.
    private static func scaled(_ value: Double, byPowerOfTwo k: Int) -> Double {
        if k > 1023 { return value * 0x1p1023 * powerOfTwo(k - 1023) }
        if k < -1022 { return value * powerOfTwo(k + 1000) * 0x1p-1000 }
        return value * powerOfTwo(k)
    }

    /// 2^k for -1022 ≤ k ≤ 1023.
    private static func powerOfTwo(_ k: Int) -> Double {
        Double(bitPattern: UInt64(1023 + k) << 52)
    }

    private static let inverseLn2 = 0x1.71547652b82fep0
    private static let ln2High = 0x1.62e42fefa3800p-1
    private static let ln2Low = 0x1.ef35793c76730p-45
    /// 1.5 × 2^52: adding and taking it away rounds to the nearest integer, ties to even.
    private static let roundingShift = 0x1.8p52
    private static let log10OfE = DoubleDouble(0x1.bcb7b1526e50ep-2, 0x1.95355baaafad3p-57)
    private static let twoThirds = DoubleDouble(0x1.5555555555555p-1, 0x1.5555555555555p-55)
    private static let sixth = DoubleDouble(0x1.5555555555555p-3, 0x1.5555555555555p-57)
    private static let negativeSixth = DoubleDouble(-0x1.5555555555555p-3, -0x1.5555555555555p-57)
    private static let twentyFourth = DoubleDouble(0x1.5555555555555p-5, 0x1.5555555555555p-59)
    private static let twoOverPi = 0x1.45f306dc9c883p-1
    private static let halfPi1 = 0x1.921fb54400000p0
    private static let halfPi2 = 0x1.0b4611a600000p-34
    private static let halfPi3 = 0x1.3198a2e000000p-69
    private static let halfPi4 = 0x1.b839a252049c1p-104
    private static let significandMask: UInt64 = (1 << 52) - 1
    private static let oneExponent: UInt64 = 1023 << 52
    /// 1/14!, 1/13!, …, 1/4!: each quotient of exact integers rounds once.
    private static let expTaylorFromTheTop: [Double] = [
        1 / 87_178_291_200, 1 / 6_227_020_800, 1 / 479_001_600, 1 / 39_916_800, 1 / 3_628_800,
        1 / 362_880, 1 / 40_320, 1 / 5_040, 1 / 720, 1 / 120, 1 / 24,
    ]
    /// 2/25, 2/23, …, 2/5: the series of (2 atanh s - 2s - 2s³/3) / s⁵, in s².
    private static let atanhSeriesFromTheTop: [Double] = [
        2 / 25, 2 / 23, 2 / 21, 2 / 19, 2 / 17, 2 / 15, 2 / 13, 2 / 11, 2 / 9, 2 / 7, 2 / 5,
    ]
    /// The series of (sin r - r + r³/6) / r⁵ in r², from -1/23! up to 1/5!.
    private static let sineSeriesFromTheTop: [Double] = [
        -1 / 25_852_016_738_884_976_640_000.0, 1 / 51_090_942_171_709_440_000.0,
        -1 / 121_645_100_408_832_000.0, 1 / 355_687_428_096_000.0, -1 / 1_307_674_368_000.0,
        1 / 6_227_020_800.0, -1 / 39_916_800.0, 1 / 362_880.0, -1 / 5_040.0, 1 / 120.0,
    ]
    /// The series of (cos r - 1 + r²/2 - r⁴/24) / r⁶ in r², from -1/22! up to -1/6!.
    private static let cosineSeriesFromTheTop: [Double] = [
        -1 / 1_124_000_727_777_607_680_000.0, 1 / 2_432_902_008_176_640_000.0,
        -1 / 6_402_373_705_728_000.0, 1 / 20_922_789_888_000.0, -1 / 87_178_291_200.0,
        1 / 479_001_600.0, -1 / 3_628_800.0, 1 / 40_320.0, -1 / 720.0,
    ]
}
