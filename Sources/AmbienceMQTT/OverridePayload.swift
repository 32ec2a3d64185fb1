import AmbienceCore

/// A command message on an override topic: for the theme `auto`, `invert`, `regular` or
/// `contrast`, for the backlight `auto` or a percent (`40`, as Home Assistant's number sends it),
/// for the display `on`, `off` or `auto`, each optionally followed by ` for DURATION` (`for 30m`).
/// The control pipe's own parser decides, so MQTT takes exactly what `ambience override`,
/// `ambience brightness` and `ambience display` take.
public enum OverridePayload {
    /// What a topic overrides: the control line's first word.
    public enum Kind: String, Sendable {
        case theme = "override"
        case brightness
        case display
        case whitePoint = "whitepoint"

        /// What a rejected payload's warning suggests instead.
        public var expected: String {
            switch self {
            case .theme: "auto, invert, regular or contrast, optionally 'for 30m'"
            case .brightness: "auto or a whole percent 0 to 100, optionally 'for 30m'"
            case .display: "on, off or auto, optionally 'for 30m'"
            case .whitePoint: "auto or whole kelvin 1000 to 15000, optionally 'for 30m'"
            }
        }
    }

    /// Longer payloads are not commands; the limit keeps what is logged of one short.
    public static let maximumLength = 64

    public struct Rejection: Error, Equatable, Sendable {
        public var message: String
    }

    /// The control-pipe line for `payload`, or why it is not a command.
    public static func controlLine(_ payload: [UInt8], kind: Kind = .theme) -> Result<String, Rejection> {
        guard payload.count <= maximumLength else {
            return .failure(Rejection(message: "longer than \(maximumLength) bytes"))
        }
        guard let text = String(validating: payload, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" })
        else {
            return .failure(Rejection(message: "not a line of text"))
        }
        let line = kind.rawValue + " " + text
        do {
            switch kind {
            case .theme: _ = try ControlLine.parse(line)
            case .brightness: _ = try ControlLine.parseBrightness(line)
            case .display: _ = try ControlLine.parseDisplay(line)
            case .whitePoint: _ = try ControlLine.parseWhitePoint(line)
            }
        } catch {
            return .failure(Rejection(message: error.message))
        }
        return .success(line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " "))
    }

    /// The payload as it may appear in a log line: printable, and short.
    public static func quoted(_ payload: [UInt8]) -> String {
        let text = String(decoding: payload.prefix(maximumLength), as: UTF8.self)
        let printable = String(
            text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return "'" + printable + (payload.count > maximumLength ? "…" : "") + "'"
    }
}
