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
}

extension ConfigurationKey {
    /// One of a chip's integration times, in milliseconds.
    public static func milliseconds<Time: Sendable>(
        _ name: String, among times: [Time], milliseconds: @escaping @Sendable (Time) -> Double,
        get: @escaping @Sendable (Settings) -> Time?, set: @escaping @Sendable (inout Settings, Time) -> Void,
        unset: String? = nil
    ) -> Self {
        value(
            name,
            read: { name, section, decoder in
                decoder.milliseconds(name, in: section, among: times, milliseconds: milliseconds)
            },
            write: { ConfigurationFormat.number(milliseconds($0)) }, get: get, set: set, unset: unset)
    }
}

/// A chip's `[sensor.KIND]` table: its keys, read into `Values` (the settings as the file gives
/// them), which `settings` makes the chip's settings of, checking what spans keys; `values` is the
/// way back, for `ambience check`'s text. Most chips' values are their settings.
public struct ChipTable<Settings>: Sendable {
    let decode: @Sendable (ConfigurationDecoder.Section, inout ConfigurationDecoder) -> Settings
    let lines: @Sendable (Settings, _ path: String) -> [String]

    public init<Values: Sendable>(
        _ keys: ConfigurationTable<Values>, reading start: Values,
        settings:
            @escaping @Sendable (Values, ConfigurationDecoder.Section, inout ConfigurationDecoder) -> Settings,
        values: @escaping @Sendable (Settings) -> Values
    ) {
        decode = { section, decoder in
            var read = start
            keys.decode(section, into: &read, decoder: &decoder)
            return settings(read, section, &decoder)
        }
        lines = { settings, path in keys.lines(values(settings), path: path) }
    }

    private init(
        decode: @escaping @Sendable (ConfigurationDecoder.Section, inout ConfigurationDecoder) -> Settings,
        lines: @escaping @Sendable (Settings, _ path: String) -> [String]
    ) {
        self.decode = decode
        self.lines = lines
    }
}

extension ChipTable where Settings: ChipSettings {
    /// A table whose keys are read into the settings themselves, from their defaults.
    public init(_ keys: ConfigurationTable<Settings>) {
        self.init(keys, reading: Settings.defaults, settings: { settings, _, _ in settings }, values: { $0 })
    }

    /// The same table given any chip's model: this chip's settings (its defaults for another's).
    var forModels: ChipTable<SensorModel> {
        let decode = decode
        let lines = lines
        return ChipTable<SensorModel>(
            decode: { section, decoder in decode(section, &decoder).model },
            lines: { model, path in lines(Settings(model) ?? .defaults, path) })
    }
}
