/// The control pipe's language (docs/guarantees.md §5.5):
/// `override invert|regular|contrast [for DURATION]` and `override auto`, and for the backlight
/// `brightness PERCENT [for DURATION]` and `brightness auto`, and for the display's sleep
/// `display on|off [for DURATION]` and `display auto`, and for the display's white
/// `whitepoint KELVIN [for DURATION]` and `whitepoint auto`.
/// DURATION is seconds, or numbers with units: `90`, `45s`, `10m`, `2h`, `1h30m`, `1d`, at most
/// `longestOverride` (a year).
/// Besides overrides, `record` asks the daemon to write its record of the light
/// (`LightRecord`) beside the control pipe, for `ambience record`, and `outputs on|off` is
/// `ambience kiosk` saying what a Wayland session's outputs are (`[display] device = "wayland"`).
public enum ControlLine {
    public enum Request: Equatable, Sendable {
        case override(Engine.OverrideCommand)
        case brightness(BrightnessEngine.Command)
        case display(DisplaySleepEngine.Command)
        case whitePoint(WhitePointEngine.Command)
        case record
        /// The Wayland session's outputs, as the compositor says: any on is on.
        case outputs(DisplayPower)
    }

    public static let recordRequest = "record"
    public static let outputsReport = "outputs"

    /// The line `ambience kiosk` writes when the session's outputs are `power`.
    public static func outputs(_ power: DisplayPower) -> String { outputsReport + " " + power.rawValue }

    /// Any line the control pipe takes.
    public static func request(_ line: String) throws(ParseError) -> Request {
        let words = words(of: line)
        if words.count == 1, words[0] == recordRequest { return .record }
        switch words.first {
        case "override": return .override(try parse(line))
        case "brightness": return .brightness(try parseBrightness(line))
        case "display": return .display(try parseDisplay(line))
        case "whitepoint": return .whitePoint(try parseWhitePoint(line))
        case let word? where word == outputsReport:
            guard words.count == 2, let power = DisplayPower(rawValue: String(words[1])) else {
                throw ParseError(message: "expected 'outputs on' or 'outputs off'")
            }
            return .outputs(power)
        default:
            throw ParseError(
                message: "expected 'override STATE [for DURATION]', 'override auto',"
                    + " 'brightness PERCENT [for DURATION]', 'brightness auto',"
                    + " 'display on|off [for DURATION]', 'display auto',"
                    + " 'whitepoint KELVIN [for DURATION]' or 'whitepoint auto'")
        }
    }

    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public static func parse(_ line: String) throws(ParseError) -> Engine.OverrideCommand {
        let keyword: Substring = "override"
        guard let held = try held(line, keyword: keyword, placeholder: "STATE", needs: "a state") else {
            return .auto
        }
        guard let state = AmbienceState(rawValue: String(held.word)) else {
            throw ParseError(message: "unknown state '\(held.word)': use invert, regular, contrast or auto")
        }
        return .hold(state, duration: try duration(of: held, keyword: keyword))
    }

    /// `brightness PERCENT [for DURATION]` or `brightness auto`; PERCENT is a whole number 0 to 100.
    public static func parseBrightness(_ line: String) throws(ParseError) -> BrightnessEngine.Command {
        let keyword: Substring = "brightness"
        guard let held = try held(line, keyword: keyword, placeholder: "PERCENT", needs: "a percent") else {
            return .auto
        }
        let word = held.word
        guard let percent = Int(word.hasSuffix("%") ? word.dropLast() : word), percent >= 0, percent <= 100
        else {
            throw ParseError(message: "'\(word)' is not a brightness: use a whole percent 0 to 100, or auto")
        }
        return .hold(percent: percent, duration: try duration(of: held, keyword: keyword))
    }

    /// `display on|off [for DURATION]` or `display auto`.
    public static func parseDisplay(_ line: String) throws(ParseError) -> DisplaySleepEngine.Command {
        let keyword: Substring = "display"
        guard let held = try held(line, keyword: keyword, placeholder: "on|off", needs: "on, off") else {
            return .auto
        }
        guard let power = DisplayPower(rawValue: String(held.word)) else {
            throw ParseError(message: "'\(held.word)' is not a display power: use on, off or auto")
        }
        return .hold(power, duration: try duration(of: held, keyword: keyword))
    }

    /// `whitepoint KELVIN [for DURATION]` or `whitepoint auto`; KELVIN is a whole number 1000 to
    /// 15000, with or without its unit (`5000`, `5000K`).
    public static func parseWhitePoint(_ line: String) throws(ParseError) -> WhitePointEngine.Command {
        let keyword: Substring = "whitepoint"
        guard let held = try held(line, keyword: keyword, placeholder: "KELVIN", needs: "a white in kelvin")
        else { return .auto }
        let word = held.word
        let range = WhitePointEngine.overrideKelvin
        guard let kelvin = Int(word.hasSuffix("K") || word.hasSuffix("k") ? word.dropLast() : word),
            range.contains(Double(kelvin))
        else {
            throw ParseError(
                message: "'\(word)' is not a white: use whole kelvin \(Int(range.lowerBound)) to"
                    + " \(Int(range.upperBound)) (5000K), or auto")
        }
        return .hold(kelvin: Double(kelvin), duration: try duration(of: held, keyword: keyword))
    }

    /// `KEYWORD VALUE [for DURATION]`, or nil for `KEYWORD auto`: the grammar every override
    /// shares. The value's word and the words after it; the caller reads the value, then
    /// `duration(of:keyword:)` the rest, so a bad value is the error reported before a bad
    /// duration. Not generic over the value: one copy of the grammar in the daemon, not one per
    /// kind of override.
    private static func held(
        _ line: String, keyword: Substring, placeholder: String, needs: String
    ) throws(ParseError) -> (word: Substring, rest: ArraySlice<Substring>)? {
        let words = words(of: line)
        guard words.first == keyword else {
            throw ParseError(
                message: "expected '\(keyword) \(placeholder) [for DURATION]' or '\(keyword) auto'")
        }
        guard words.count >= 2 else { throw ParseError(message: "'\(keyword)' needs \(needs) or 'auto'") }
        if words[1] == "auto" {
            guard words.count == 2 else {
                throw ParseError(message: "'\(keyword) auto' takes nothing after it")
            }
            return nil
        }
        return (words[1], words[2...])
    }

    /// The `for DURATION` after a held value, nil when there is none.
    private static func duration(
        of held: (word: Substring, rest: ArraySlice<Substring>), keyword: Substring
    ) throws(ParseError) -> Double? {
        let rest = held.rest
        switch rest.count {
        case 0:
            return nil
        case 2 where rest[rest.startIndex] == "for":
            return try overrideDuration(rest[rest.startIndex + 1])
        default:
            throw ParseError(message: "expected '\(keyword) \(held.word) [for DURATION]'")
        }
    }

    private static func words(of line: String) -> [Substring] {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
    }

    /// The longest override a line may ask for: a year. Longer is no one's intent (a typo, or a
    /// payload probing the parser), and the bound keeps the time left a number every reader
    /// prints and every integer time type holds.
    public static let longestOverride: Double = 365 * 86_400

    /// `duration(text)` within `longestOverride`: the one check the CLI, the control pipe and
    /// MQTT share, as they share this parser.
    public static func overrideDuration<S: StringProtocol>(_ text: S) throws(ParseError) -> Double {
        let seconds = try duration(text)
        guard seconds <= longestOverride else {
            throw ParseError(message: "'\(text)' is longer than the longest override, 365d (a year)")
        }
        return seconds
    }

    /// Seconds in a duration such as `90`, `2.5s`, `10m` or `1h30m`; it must be positive.
    public static func duration<S: StringProtocol>(_ text: S) throws(ParseError) -> Double {
        let invalid = ParseError(message: "'\(text)' is not a duration: use e.g. 90, 45s, 10m, 2h, 1h30m")
        if let seconds = Double(String(text)) {
            guard seconds.isFinite, seconds > 0 else { throw invalid }
            return seconds
        }
        var total = 0.0
        var number = ""
        for character in text {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: throw invalid
            }
            guard let value = Double(number), value.isFinite else { throw invalid }
            total += value * unit
            number = ""
        }
        guard number.isEmpty, total.isFinite, total > 0 else { throw invalid }
        return total
    }
}
