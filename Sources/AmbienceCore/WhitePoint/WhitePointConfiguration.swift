/// The white point engine's own names for its values: the keys of its refusals.
public enum WhitePointField: String, CaseIterable, Sendable {
    case native, warmest, coolest, strength, dimBelow, timeConstant, dwell, deadband, rampRate
    case night, nightKelvin
}

/// How the display's white follows the room's (`WhitePointEngine`), validated together;
/// docs/whitepoint.md has the defaults and why. Colour temperatures are in kelvin here, and in
/// mireds (10^6 / K) inside the engine, where equal steps look alike.
public struct WhitePointConfiguration: Equatable, Sendable {
    /// The panel's own white, shown in daylight: D65's 6500 K for most.
    public let native: Double
    /// The warmest and the coolest white the room may ask for (a night window may go warmer).
    public let warmest: Double
    public let coolest: Double
    /// How far the display follows the room from its native white: 0 not at all, 1 all the way.
    public let strength: Double
    /// Below this many lux the room's colour is not measured well: the white stays.
    public let dimBelow: Double
    /// τ of the moving average of the room's mireds, seconds.
    public let timeConstant: Double
    /// Seconds of evidence a new room white needs: longer than a passing shadow or a red car.
    public let dwell: Double
    /// Half the width, in mireds, of the band around the room's level that moves nothing.
    public let deadband: Double
    /// Mireds per second the display's white moves at most, one mired at a time.
    public let rampRate: Double
    /// Times of day whose white is at most `nightKelvin` (Night Shift); none by default.
    public let night: [DailyWindow]
    public let nightKelvin: Double

    /// 6500 K native, 4000 to 6500 K, strength 0.8, colour below 10 lx ignored, τ 10 s, D 20 s,
    /// ±10 mireds, 5 mireds/s.
    public static let roomWhite = try! WhitePointConfiguration()

    public init(
        native: Double = 6500, warmest: Double = 4000, coolest: Double = 6500, strength: Double = 0.8,
        dimBelow: Double = 10, timeConstant: Double = 10, dwell: Double = 20, deadband: Double = 10,
        rampRate: Double = 5, night: [DailyWindow] = [], nightKelvin: Double = 3400
    ) throws(ConfigurationError) {
        func require(_ holds: Bool, _ field: WhitePointField, _ message: String) throws(ConfigurationError) {
            if !holds { throw ConfigurationError(key: field.rawValue, message: message) }
        }
        func kelvin(_ value: Double) -> Bool { value.isFinite && value >= 1000 && value <= 15_000 }
        try require(kelvin(native), .native, "must be 1000 to 15000 K, not \(native)")
        try require(kelvin(warmest), .warmest, "must be 1000 to 15000 K, not \(warmest)")
        try require(
            kelvin(coolest) && coolest >= warmest, .coolest,
            "must be 1000 to 15000 K and at least warmest (\(warmest) K), not \(coolest)")
        try require(
            strength.isFinite && strength >= 0 && strength <= 1, .strength, "must be 0 to 1, not \(strength)")
        try require(
            dimBelow.isFinite && dimBelow >= 0, .dimBelow, "must be zero or more lux, not \(dimBelow)")
        try require(
            timeConstant.isFinite && timeConstant > 0, .timeConstant,
            "τ must be a positive number of seconds, not \(timeConstant)")
        try require(dwell.isFinite && dwell >= 0, .dwell, "must be zero or more seconds, not \(dwell)")
        try require(
            deadband.isFinite && deadband >= 0 && deadband <= 200, .deadband,
            "must be 0 to 200 mireds, not \(deadband)")
        try require(
            rampRate.isFinite && rampRate >= 0.1 && rampRate <= 1000, .rampRate,
            "must be 0.1 to 1000 mireds per second, not \(rampRate)")
        try require(kelvin(nightKelvin), .nightKelvin, "must be 1000 to 15000 K, not \(nightKelvin)")
        self.native = native
        self.warmest = warmest
        self.coolest = coolest
        self.strength = strength
        self.dimBelow = dimBelow
        self.timeConstant = timeConstant
        self.dwell = dwell
        self.deadband = deadband
        self.rampRate = rampRate
        self.night = night
        self.nightKelvin = nightKelvin
    }

    /// The display's white, in mireds, for a room at `roomMired`, in or out of a night window.
    public func target(roomMired: Double, atNight: Bool) -> Double {
        let native = 1e6 / self.native
        let followed = native + strength * (roomMired - native)
        let clamped = min(max(followed, 1e6 / coolest), 1e6 / warmest)
        return atNight ? max(clamped, 1e6 / nightKelvin) : clamped
    }

    /// The promised bound on the time from a steady change of the room's white (beyond the
    /// deadband) to the display's white at its new target: the evidence, seen at a sample up to
    /// P later, then the ramp across the whole clamp at most.
    public func latencyBound(sampleInterval: Double) -> Double {
        dwell + sampleInterval + (1e6 / warmest - 1e6 / coolest) / rampRate + 1 / rampRate
    }
}
