import AmbienceCore

/// A command message on an override topic: `auto`, `invert`, `regular` or `contrast`, optionally
/// followed by ` for DURATION` (`for 30m`). The control pipe's own parser decides, so MQTT takes
/// exactly what `ambience override` takes.
public enum OverridePayload {
    /// Longer payloads are not commands; the limit keeps what is logged of one short.
    public static let maximumLength = 64

    public struct Rejection: Error, Equatable, Sendable {
        public var message: String
    }

    /// The control-pipe line for `payload`, or why it is not a command.
    public static func controlLine(_ payload: [UInt8]) -> Result<String, Rejection> {
        guard payload.count <= maximumLength else {
            return .failure(Rejection(message: "longer than \(maximumLength) bytes"))
        }
        guard let text = String(validating: payload, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" })
        else {
            return .failure(Rejection(message: "not a line of text"))
        }
        let line = "override " + text
        do {
            _ = try ControlLine.parse(line)
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
