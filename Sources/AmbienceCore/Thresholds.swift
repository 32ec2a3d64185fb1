/// One boundary between two neighbouring states: leave the darker state above `rise`,
/// leave the brighter one below `fall`. The gap between them is the hysteresis.
public struct Boundary: Equatable, Sendable {
    public var fall: Double
    public var rise: Double

    public init(fall: Double, rise: Double) {
        self.fall = fall
        self.rise = rise
    }
}

/// The two boundaries, validated: `fall < rise` on each and strictly ordered across both.
public struct Thresholds: Equatable, Sendable {
    public let invertRegular: Boundary
    public let regularContrast: Boundary

    /// Suits an indoor kiosk: below 20 lux is a dark room, above 5000 lux is sunlight on the screen.
    public static let indoorKiosk = try! Thresholds(
        invertRegular: Boundary(fall: 20, rise: 50),
        regularContrast: Boundary(fall: 2500, rise: 5000))

    public init(invertRegular: Boundary, regularContrast: Boundary) throws(ConfigurationError) {
        let values: [(EngineField, Double)] = [
            (.invertRegularFall, invertRegular.fall), (.invertRegularRise, invertRegular.rise),
            (.regularContrastFall, regularContrast.fall), (.regularContrastRise, regularContrast.rise),
        ]
        for (field, value) in values where !value.isFinite {
            throw ConfigurationError(
                key: field.rawValue, message: "must be a finite number of lux, not \(value)")
        }
        for boundary in [(EngineField.invertRegular, invertRegular), (.regularContrast, regularContrast)]
        where !(boundary.1.fall < boundary.1.rise) {
            throw ConfigurationError(
                key: boundary.0.rawValue,
                message: "fall (\(boundary.1.fall)) must be below rise (\(boundary.1.rise)): "
                    + "the gap between them is the hysteresis")
        }
        guard invertRegular.rise < regularContrast.fall else {
            throw ConfigurationError(
                key: EngineField.regularContrastFall.rawValue,
                message: "the regular/contrast fall (\(regularContrast.fall)) must be above "
                    + "the invert/regular rise (\(invertRegular.rise)): boundaries must be strictly ordered")
        }
        self.invertRegular = invertRegular
        self.regularContrast = regularContrast
    }

    /// The boundary between `state` and its brighter neighbour, if any.
    func boundary(above state: AmbienceState) -> Boundary? {
        switch state {
        case .invert: invertRegular
        case .regular: regularContrast
        case .contrast: nil
        }
    }

    /// The state a light level indicates from `state`: walk up while above the next rise,
    /// down while below the next fall. Deterministic, and it may jump over a band.
    public func indicated(from state: AmbienceState, lux: Double) -> AmbienceState {
        var current = state
        while let up = current.brighter, let edge = boundary(above: current), lux > edge.rise {
            current = up
        }
        while let down = current.darker, let edge = boundary(above: down), lux < edge.fall {
            current = down
        }
        return current
    }

    /// The state a level indicates whatever the current one, or nil inside a hysteresis band.
    public func unambiguousState(lux: Double) -> AmbienceState? {
        let fromDark = indicated(from: .invert, lux: lux)
        return fromDark == indicated(from: .contrast, lux: lux) ? fromDark : nil
    }
}
