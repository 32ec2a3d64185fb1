import AmbienceConfig
import AmbienceCore

/// `[whitepoint]` (docs/whitepoint.md): the display's white follows the room's colour, from a
/// colour sensor. Off unless the table is present.
public struct WhitePointSettings: Equatable, Sendable {
    public var whitePoint: WhitePointConfiguration

    public init(whitePoint: WhitePointConfiguration = .roomWhite) {
        self.whitePoint = whitePoint
    }
}

extension DaemonConfiguration {
    /// `[whitepoint]`; nil leaves the display's white alone.
    public var whitePoint: WhitePointSettings? {
        get { outputs["whitepoint", default: nil] }
        set { outputs["whitepoint", default: nil] = newValue }
    }

    /// Where the file keeps each of the white point engine's values.
    static func whitePointFileKey(_ field: String) -> String? {
        switch WhitePointField(rawValue: field) {
        case .native: "whitepoint.native"
        case .warmest: "whitepoint.warmest"
        case .coolest: "whitepoint.coolest"
        case .strength: "whitepoint.strength"
        case .dimBelow: "whitepoint.dim_below"
        case .timeConstant: "whitepoint.tau"
        case .dwell: "whitepoint.dwell"
        case .deadband: "whitepoint.deadband"
        case .rampRate: "whitepoint.ramp"
        case .night: "whitepoint.night"
        case .nightKelvin: "whitepoint.night_kelvin"
        case nil: nil
        }
    }

    /// `[whitepoint]`: nil when the file has no such table.
    static func decodeWhitePoint(
        _ root: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder
    ) -> WhitePointSettings? {
        let section = decoder.section("whitepoint", of: root)
        guard !section.layers.isEmpty else { return nil }
        var values = WhitePointValues(.roomWhite)
        whitePointTable.decode(section, into: &values, decoder: &decoder)
        do {
            return WhitePointSettings(whitePoint: try values.configuration())
        } catch {
            decoder.adopt(error.renamingKey(whitePointFileKey))
            return WhitePointSettings()
        }
    }

    /// `[whitepoint]`: how the display's white follows the room's. Colour temperatures in kelvin,
    /// as people say them; deadband and ramp in mireds, where equal steps look alike.
    static let whitePointTable = ConfigurationTable<WhitePointValues>([
        .number("native", get: { $0.native }, set: { $0.native = $1 }),
        .number("warmest", get: { $0.warmest }, set: { $0.warmest = $1 }),
        .number("coolest", get: { $0.coolest }, set: { $0.coolest = $1 }),
        .number("strength", get: { $0.strength }, set: { $0.strength = $1 }),
        .number("dim_below", get: { $0.dimBelow }, set: { $0.dimBelow = $1 }),
        .number("tau", get: { $0.timeConstant }, set: { $0.timeConstant = $1 }),
        .number("dwell", get: { $0.dwell }, set: { $0.dwell = $1 }),
        .number("deadband", get: { $0.deadband }, set: { $0.deadband = $1 }),
        .number("ramp", get: { $0.rampRate }, set: { $0.rampRate = $1 }),
        dailyWindows("night", get: { $0.night }, set: { $0.night = $1 }),
        .number("night_kelvin", get: { $0.nightKelvin }, set: { $0.nightKelvin = $1 }),
    ])

    /// `[whitepoint]` as `ambience check` prints it; a comment when there is none.
    static func whitePointLines(_ settings: WhitePointSettings?, path: String) -> [String] {
        guard let settings else {
            return ["", "# [whitepoint]: none, the display's white is left alone"]
        }
        return whitePointTable.block(WhitePointValues(settings.whitePoint), path: path)
    }
}

/// `[whitepoint]` as the file gives it, before the engine's values are validated together.
struct WhitePointValues {
    var native: Double
    var warmest: Double
    var coolest: Double
    var strength: Double
    var dimBelow: Double
    var timeConstant: Double
    var dwell: Double
    var deadband: Double
    var rampRate: Double
    var night: [DailyWindow]
    var nightKelvin: Double

    init(_ configuration: WhitePointConfiguration) {
        native = configuration.native
        warmest = configuration.warmest
        coolest = configuration.coolest
        strength = configuration.strength
        dimBelow = configuration.dimBelow
        timeConstant = configuration.timeConstant
        dwell = configuration.dwell
        deadband = configuration.deadband
        rampRate = configuration.rampRate
        night = configuration.night
        nightKelvin = configuration.nightKelvin
    }

    func configuration() throws(ConfigurationError) -> WhitePointConfiguration {
        try WhitePointConfiguration(
            native: native, warmest: warmest, coolest: coolest, strength: strength, dimBelow: dimBelow,
            timeConstant: timeConstant, dwell: dwell, deadband: deadband, rampRate: rampRate, night: night,
            nightKelvin: nightKelvin)
    }
}
