/// The three themes, ordered darkest to brightest, as the iOS library Ambience had them.
public enum AmbienceState: String, CaseIterable, Comparable, Sendable {
    /// Dark surroundings: a light-on-dark theme.
    case invert
    case regular
    /// Bright sunlight: a high-contrast theme.
    case contrast

    public var rank: Int {
        switch self {
        case .invert: 0
        case .regular: 1
        case .contrast: 2
        }
    }

    public static func < (lhs: AmbienceState, rhs: AmbienceState) -> Bool { lhs.rank < rhs.rank }

    public var brighter: AmbienceState? { Self.allCases.first { $0.rank == rank + 1 } }
    public var darker: AmbienceState? { Self.allCases.first { $0.rank == rank - 1 } }
}
