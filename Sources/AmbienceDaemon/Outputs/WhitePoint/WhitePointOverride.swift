import AmbienceCore
import AmbienceOutputs

/// `whitepoint KELVIN [for DURATION]`, kept across restarts as the other overrides are, in a
/// file of its own.
extension WhitePointEngine.Command: PersistedOverride {
    public static func path(in store: OverrideStore) -> String { store.directory + "/whitepoint-override" }
    public static var word: String { "KELVIN" }

    public var held: (word: String, duration: Double?)? {
        switch self {
        case .hold(let kelvin, let duration): (String(Int(kelvin.rounded())), duration)
        case .auto: nil
        }
    }

    public init?(holding word: String, for remaining: Double?) {
        guard let kelvin = Int(word), WhitePointEngine.overrideKelvin.contains(Double(kelvin)) else {
            return nil
        }
        self = .hold(kelvin: Double(kelvin), duration: remaining)
    }
}

extension WhitePointEngine.Command: LoggedOverride {
    static var noun: String { "white point override" }

    var logged: String {
        switch self {
        case .hold(let kelvin, nil): "white held at \(Int(kelvin.rounded())) K"
        case .hold(let kelvin, let duration?):
            "white held at \(Int(kelvin.rounded())) K for \(EventLine.number(duration)) s"
        case .auto: "white follows the room"
        }
    }
}
