import AmbienceCore
import Testing

struct ColourTemperatureTests {
    /// Colours at known CCT and Duv from the CIE 1931 observer (Ohno's 2013 method, as the
    /// colour-science package 0.4.7 computes it: scripts/colour-reference.py): kelvin, Duv, x, y.
    static let observer: [(kelvin: Double, duv: Double, x: Double, y: Double)] = [
        (1200, -0.02, 0.57649456, 0.32112593),
        (1200, -0.005, 0.61217919, 0.35519566),
        (1200, 0.0, 0.62503186, 0.36746668),
        (1200, 0.005, 0.63841262, 0.38024189),
        (1200, 0.02, 0.68207027, 0.42192382),
        (1800, -0.02, 0.50441224, 0.35326212),
        (1800, -0.005, 0.53728370, 0.39356482),
        (1800, 0.0, 0.54924318, 0.40822796),
        (1800, 0.005, 0.56176246, 0.42357747),
        (1800, 0.02, 0.60310190, 0.47426250),
        (2200, -0.02, 0.46612080, 0.35807999),
        (2200, -0.005, 0.49505981, 0.39993024),
        (2200, 0.0, 0.50562543, 0.41520975),
        (2200, 0.005, 0.51670678, 0.43123508),
        (2200, 0.02, 0.55345265, 0.48437524),
        (2700, -0.02, 0.42837094, 0.35408465),
        (2700, -0.005, 0.45143308, 0.39547602),
        (2700, 0.0, 0.45986032, 0.41060103),
        (2700, 0.005, 0.46870310, 0.42647184),
        (2700, 0.02, 0.49805652, 0.47915465),
        (2856, -0.02, 0.41859708, 0.35164440),
        (2856, -0.005, 0.43979397, 0.39250505),
        (2856, 0.0, 0.44753661, 0.40743031),
        (2856, 0.005, 0.45565928, 0.42308815),
        (2856, 0.02, 0.48260959, 0.47503948),
        (3000, -0.02, 0.41030754, 0.34912262),
        (3000, -0.005, 0.42981224, 0.38937974),
        (3000, 0.0, 0.43693262, 0.40407601),
        (3000, 0.005, 0.44440013, 0.41948873),
        (3000, 0.02, 0.46915924, 0.47059079),
        (3500, -0.02, 0.38616036, 0.33940320),
        (3500, -0.005, 0.40019740, 0.37702702),
        (3500, 0.0, 0.40530527, 0.39071778),
        (3500, 0.005, 0.41065272, 0.40505069),
        (3500, 0.02, 0.42831384, 0.45238820),
        (4000, -0.02, 0.36763381, 0.32952348),
        (4000, -0.005, 0.37703489, 0.36418856),
        (4000, 0.0, 0.38044124, 0.37674894),
        (4000, 0.005, 0.38399907, 0.38986788),
        (4000, 0.02, 0.39568970, 0.43297531),
        (4500, -0.02, 0.35313264, 0.32029077),
        (4500, -0.005, 0.35875954, 0.35208024),
        (4500, 0.0, 0.36078912, 0.36354652),
        (4500, 0.005, 0.36290375, 0.37549324),
        (4500, 0.02, 0.36981491, 0.41453831),
        (5000, -0.02, 0.34155535, 0.31195061),
        (5000, -0.005, 0.34416534, 0.34113084),
        (5000, 0.0, 0.34510263, 0.35161003),
        (5000, 0.005, 0.34607690, 0.36250254),
        (5000, 0.02, 0.34924476, 0.39791994),
        (5500, -0.02, 0.33214911, 0.30452499),
        (5500, -0.005, 0.33236018, 0.33141792),
        (5500, 0.0, 0.33243568, 0.34103707),
        (5500, 0.005, 0.33251399, 0.35101410),
        (5500, 0.02, 0.33276742, 0.38330399),
        (6500, -0.02, 0.31790951, 0.29214222),
        (6500, -0.005, 0.31467583, 0.31537547),
        (6500, 0.0, 0.31352694, 0.32362997),
        (6500, 0.005, 0.31233958, 0.33216086),
        (6500, 0.02, 0.30852635, 0.35955803),
        (8000, -0.02, 0.30373677, 0.27839988),
        (8000, -0.005, 0.29741694, 0.29789145),
        (8000, 0.0, 0.29518780, 0.30476658),
        (8000, 0.005, 0.29289286, 0.31184461),
        (8000, 0.02, 0.28558284, 0.33439014),
        (10000, -0.02, 0.29212998, 0.26604342),
        (10000, -0.005, 0.28361807, 0.28251465),
        (10000, 0.0, 0.28063408, 0.28828891),
        (10000, 0.005, 0.27757195, 0.29421438),
        (10000, 0.02, 0.26788475, 0.31295990),
        (14000, -0.02, 0.27998506, 0.25200333),
        (14000, -0.005, 0.26956240, 0.26547053),
        (14000, 0.0, 0.26593176, 0.27016171),
        (14000, 0.005, 0.26221846, 0.27495969),
        (14000, 0.02, 0.25055337, 0.29003225),
    ]

    /// Krystek's locus is within 2·10^-4 of the observer's in uv: from 1200 to 8000 K and Duv
    /// ±0.02 the CCT is within 0.6 mired, up to 14,000 K within 1.5, and Duv within 3·10^-4.
    @Test func nearTheObserversLocusEverywhere() throws {
        for point in Self.observer {
            let found = try #require(ColourTemperature(Chromaticity(x: point.x, y: point.y)))
            let bound = point.kelvin <= 8000 ? 0.6 : 1.5
            #expect(
                abs(1e6 / found.kelvin - 1e6 / point.kelvin) < bound, "\(point.kelvin) K: \(found.kelvin)")
            #expect(abs(found.duv - point.duv) < 3e-4, "\(point.kelvin) K, Duv \(point.duv): \(found.duv)")
        }
    }

    /// CIE 15's illuminants: A (2856 K, on the locus), D50 and D65 (above it).
    @Test func theCIEIlluminants() throws {
        let a = try #require(ColourTemperature(Chromaticity(x: 0.44757, y: 0.40745)))
        #expect(abs(a.kelvin - 2856) < 2)
        #expect(abs(a.duv) < 3e-4)
        let d50 = try #require(ColourTemperature(Chromaticity(x: 0.34567, y: 0.35850)))
        #expect(abs(d50.kelvin - 5003) < 5)
        #expect(abs(d50.duv - 0.0033) < 3e-4)
        let d65 = try #require(ColourTemperature(.d65))
        #expect(abs(d65.kelvin - 6504) < 5)
        #expect(abs(d65.duv - 0.0032) < 3e-4)
    }

    @Test func mcCamyIsCloseBetweenAAndD65() {
        #expect(abs(ColourTemperature.mcCamy(Chromaticity(x: 0.44757, y: 0.40745)) - 2857.3) < 0.5)
        #expect(abs(ColourTemperature.mcCamy(Chromaticity(x: 0.3127, y: 0.3290)) - 6505.1) < 0.5)
    }

    @Test func notWhiteIsNil() {
        #expect(ColourTemperature(Chromaticity(x: 0.64, y: 0.33)) == nil)  // sRGB's red
        #expect(ColourTemperature(Chromaticity(x: 0.30, y: 0.60)) == nil)  // its green
        #expect(ColourTemperature(Chromaticity(x: 0.15, y: 0.06)) == nil)  // its blue
        #expect(Tristimulus(x: 0, y: 0, z: 0).chromaticity == nil)
    }

    /// The locus's formula gives D65 within 10^-4 of its tabulated spectrum's (0.31271, 0.32902).
    @Test func theDaylightLocusHoldsD65() {
        let d65 = ColourTemperature.daylight(kelvin: 6504)
        #expect(abs(d65.x - 0.31271) < 2e-5)
        #expect(abs(d65.y - 0.32902) < 1.1e-4)
    }

    @Test func xyAndUVRoundTrip() {
        let (u, v) = Chromaticity.d65.uv
        let back = Chromaticity(u: u, v: v)
        #expect(abs(back.x - Chromaticity.d65.x) < 1e-12)
        #expect(abs(back.y - Chromaticity.d65.y) < 1e-12)
    }
}

struct DisplayGainsTests {
    @Test func theNativeWhiteIsUnity() {
        let gains = DisplayGains(kelvin: 6500, native: 6500)
        #expect(abs(gains.red - 1) < 1e-12 && abs(gains.green - 1) < 1e-12 && abs(gains.blue - 1) < 1e-12)
    }

    /// As colour-science 0.4.7 computes them: CIE daylight (and below 4000 K the Planckian locus
    /// moved to meet it) through sRGB's matrix, relative to daylight at 6500 K.
    @Test func warmerWhitesTakeBlueAndGreenAway() {
        let expected: [(kelvin: Double, green: Double, blue: Double)] = [
            (5000, 0.82956169, 0.61372457), (4000, 0.6739493, 0.35762131), (3000, 0.49168164, 0.13526401),
        ]
        for row in expected {
            let gains = DisplayGains(kelvin: row.kelvin, native: 6500)
            #expect(gains.red == 1)
            #expect(abs(gains.green - row.green) < 1e-4, "\(row.kelvin) K green \(gains.green)")
            #expect(abs(gains.blue - row.blue) < 1e-4, "\(row.kelvin) K blue \(gains.blue)")
        }
    }

    @Test func whitesJoinAt4000K() {
        let below = DisplayGains.white(kelvin: 3999.999)
        let at = DisplayGains.white(kelvin: 4000)
        #expect(abs(below.x - at.x) < 1e-6 && abs(below.y - at.y) < 1e-6)
    }
}
