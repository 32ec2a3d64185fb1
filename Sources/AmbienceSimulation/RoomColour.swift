import AmbienceCore

/// The colour temperature of a simulated room's light, for the colour sensors' emulators: a
/// room lit by lamps is warm, one lit by the sky is not.
public enum RoomColour {
    /// Lamps (2700 K) up to 150 lx, daylight (6500 K) from 3000 lx, and between them a mix
    /// straight in mireds over the logarithm of the light: an evening dims into lamplight.
    public static func typicalKelvin(lux: Double) -> Double {
        let lamps = (lux: 150.0, mired: 1e6 / 2700)
        let daylight = (lux: 3000.0, mired: 1e6 / 6500)
        guard lux > lamps.lux else { return 1e6 / lamps.mired }
        guard lux < daylight.lux else { return 1e6 / daylight.mired }
        let share =
            (PortableMath.log10(lux) - PortableMath.log10(lamps.lux))
            / (PortableMath.log10(daylight.lux) - PortableMath.log10(lamps.lux))
        return 1e6 / (lamps.mired + share * (daylight.mired - lamps.mired))
    }
}
