import AmbienceConfig
import AmbienceCore

// What the chips' settings tables share: the spelling of their checks and messages.
extension ConfigurationDecoder {
    /// One of a chip's integration times, written in milliseconds as the datasheet gives them.
    public mutating func milliseconds<Time>(
        _ name: String, in section: Section, among times: [Time], milliseconds: (Time) -> Double
    ) -> Time? {
        guard let value = number(name, in: section) else { return nil }
        if let time = times.first(where: { milliseconds($0) == value }) { return time }
        let choices = times.map { ConfigurationFormat.number(milliseconds($0)) }
        adopt(
            ConfigurationError(
                key: section.key(name),
                message:
                    "must be \(choices.dropLast().joined(separator: ", ")) or \(choices.last ?? "")"
                    + " (milliseconds), not \(ConfigurationFormat.number(value))"))
        return nil
    }

    /// A key a chip's automatic ranging chooses, given with `choice = "auto"`: refused, placed at it.
    public mutating func chosenByAutomaticRanging(_ name: String, in section: Section, by choice: String) {
        adopt(
            ConfigurationError(
                key: section.key(name),
                message:
                    "is chosen by automatic ranging when \(choice) = \"auto\"; remove it or choose a \(choice)"
            ))
    }

    /// Whether any layer gives the key (a value refused or not).
    public func isGiven(_ name: String, in section: Section) -> Bool {
        section.layers.contains { $0.table[name] != nil }
    }
}
