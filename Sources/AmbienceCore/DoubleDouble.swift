/// A number held as the unevaluated sum `high + low` of two doubles, about 106 bits, built from
/// error-free transformations in plain IEEE-754 additions and multiplications: Knuth's two-sum
/// and Dekker's product with Veltkamp's split. None of them needs a fused multiply-add, so every
/// target computes the same bits (a fused one rounds once where these round twice).
struct DoubleDouble {
    var high: Double
    var low: Double

    init(_ high: Double, _ low: Double = 0) {
        self.high = high
        self.low = low
    }

    /// `a + b` exactly, whichever is larger.
    static func sum(_ a: Double, _ b: Double) -> DoubleDouble {
        let sum = a + b
        let bPart = sum - a
        let aPart = sum - bPart
        return DoubleDouble(sum, (a - aPart) + (b - bPart))
    }

    /// `a * b` exactly, for products away from overflow and underflow.
    static func product(_ a: Double, _ b: Double) -> DoubleDouble {
        let product = a * b
        let (aHigh, aLow) = split(a)
        let (bHigh, bLow) = split(b)
        let error = ((aHigh * bHigh - product) + aHigh * bLow + aLow * bHigh) + aLow * bLow
        return DoubleDouble(product, error)
    }

    /// `a` as two halves of 26 bits or fewer, whose products with each other are exact.
    private static func split(_ a: Double) -> (Double, Double) {
        let scaled = 134_217_729 * a  // 2^27 + 1
        let high = scaled - (scaled - a)
        return (high, a - high)
    }

    /// The pair made canonical, `low` within half an ulp of `high`; needs |high| ≥ |low|.
    private static func normalized(_ high: Double, _ low: Double) -> DoubleDouble {
        let sum = high + low
        return DoubleDouble(sum, low - (sum - high))
    }

    static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let highs = sum(a.high, b.high)
        let lows = sum(a.low, b.low)
        let first = sum(highs.high, highs.low + lows.high)
        return sum(first.high, first.low + lows.low)
    }

    static func * (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let highs = product(a.high, b.high)
        return normalized(highs.high, highs.low + (a.high * b.low + a.low * b.high))
    }

    /// The nearest double.
    var rounded: Double { high + low }
}
