/// The white a display is asked to show, and the per-channel gains that make its native white
/// into it: in linear light, relative to the native white, the largest gain 1 (a display cannot
/// give more than its full drive, so a warmer white takes blue and green away).
///
/// The white at a colour temperature is CIE daylight's (D65 at 6504 K, the white of sRGB and of
/// most panels) from 4000 K up; below, the Planckian locus moved by daylight's offset from it at
/// 4000 K, so the whites join there. The panel is taken to have sRGB's primaries: its own are
/// not known, and the gains are a request of the eye, not a calibration.
public struct DisplayGains: Equatable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let unity = DisplayGains(red: 1, green: 1, blue: 1)

    /// The gains that turn a panel whose white is `native` K into `kelvin` K.
    public init(kelvin: Double, native: Double) {
        let target = Self.linearRGB(of: Self.white(kelvin: kelvin))
        let base = Self.linearRGB(of: Self.white(kelvin: native))
        let ratios = (target.0 / base.0, target.1 / base.1, target.2 / base.2)
        let largest = max(ratios.0, ratios.1, ratios.2)
        self.init(red: ratios.0 / largest, green: ratios.1 / largest, blue: ratios.2 / largest)
    }

    /// The gains as 8-bit sRGB values (IEC 61966-2-1's transfer): what a white pixel becomes
    /// under them, and the colour a page is multiplied by.
    public var sRGBBytes: (red: Int, green: Int, blue: Int) {
        func encoded(_ linear: Double) -> Int {
            let clamped = min(max(linear, 0), 1)
            let value =
                clamped <= 0.0031308 ? 12.92 * clamped : 1.055 * PortableMath.pow(clamped, 1 / 2.4) - 0.055
            return Int((value * 255).rounded())
        }
        return (encoded(red), encoded(green), encoded(blue))
    }

    /// The chromaticity of white at `kelvin`, as the type's comment says.
    public static func white(kelvin: Double) -> Chromaticity {
        if kelvin >= 4000 { return ColourTemperature.daylight(kelvin: kelvin) }
        let join = ColourTemperature.daylight(kelvin: 4000).uv
        let locusAtJoin = ColourTemperature.planckianUV(mired: 250)
        let locus = ColourTemperature.planckianUV(mired: 1e6 / max(kelvin, ColourTemperature.warmest))
        return Chromaticity(
            u: locus.u + (join.u - locusAtJoin.u), v: locus.v + (join.v - locusAtJoin.v))
    }

    /// Linear sRGB of a chromaticity at unit luminance (IEC 61966-2-1's matrix).
    private static func linearRGB(of chromaticity: Chromaticity) -> (Double, Double, Double) {
        let c = chromaticity.tristimulus()
        return (
            3.2406 * c.x - 1.5372 * c.y - 0.4986 * c.z,
            -0.9689 * c.x + 1.8758 * c.y + 0.0415 * c.z,
            0.0557 * c.x - 0.2040 * c.y + 1.0570 * c.z
        )
    }
}
