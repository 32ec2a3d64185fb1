import AmbienceConfig
import AmbienceCore
import AmbienceI2C
import TOML

/// `[backlight]` (docs/backlight.md): which display's brightness follows the light, and how.
/// Off unless the table is present.
public struct BacklightSettings: Equatable, Sendable {
    public enum Device: Equatable, Sendable, CustomStringConvertible {
        /// The one device in /sys/class/backlight.
        case auto
        /// A `backlight` class device: its name there, or its directory (an absolute path).
        case sysfs(String)
        /// A monitor's brightness through DDC/CI (VCP 0x10) on this I2C bus.
        case ddc(I2CBusSelector)

        /// As the file writes it.
        public var description: String {
            switch self {
            case .auto: "auto"
            case .sysfs(let device): device
            case .ddc(.number(let number)): "ddc:\(number)"
            case .ddc(.name(let name)): "ddc:\(name)"
            }
        }

        /// `"auto"`, `"ddc:BUS"` (a bus number or an adapter's name, as `[sensor] bus` takes),
        /// a name, or an absolute path; nil when it is none of them.
        public init?(_ text: String) {
            if text == "auto" {
                self = .auto
            } else if text.hasPrefix("ddc:") {
                let bus = String(text.dropFirst(4))
                guard !bus.isEmpty else { return nil }
                if let number = Int(bus), number >= 0 {
                    self = .ddc(.number(number))
                } else {
                    self = .ddc(.name(bus))
                }
            } else if !text.isEmpty, text.hasPrefix("/") || !text.contains("/") {
                self = .sysfs(text)
            } else {
                return nil
            }
        }
    }

    public var device: Device
    public var brightness: BrightnessConfiguration

    public init(device: Device = .auto, brightness: BrightnessConfiguration = .indoorKiosk) {
        self.device = device
        self.brightness = brightness
    }
}

extension DaemonConfiguration {
    /// Where the file keeps each of the brightness engine's values.
    static func backlightFileKey(_ field: String) -> String? {
        switch BrightnessField(rawValue: field) {
        case .curve: "backlight.curve"
        case .curveInvert: "backlight.curves.invert"
        case .curveRegular: "backlight.curves.regular"
        case .curveContrast: "backlight.curves.contrast"
        case .minimum: "backlight.min"
        case .maximum: "backlight.max"
        case .timeConstant: "backlight.tau"
        case .dwell: "backlight.dwell"
        case .deadband: "backlight.deadband"
        case .rampRate: "backlight.ramp"
        case nil: nil
        }
    }

    /// `[backlight]`: nil when the file has no such table.
    static func decodeBacklight(
        _ root: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder
    ) -> BacklightSettings? {
        let section = decoder.section("backlight", of: root)
        guard !section.layers.isEmpty else { return nil }
        var values = BacklightValues(BacklightSettings())
        backlight.decode(section, into: &values, decoder: &decoder)
        do {
            return BacklightSettings(device: values.device, brightness: try values.brightness())
        } catch {
            decoder.adopt(error.renamingKey(backlightFileKey))
            return BacklightSettings(device: values.device)
        }
    }

    /// `[backlight]`: the display, and how its brightness follows the light.
    static let backlight = ConfigurationTable<BacklightValues>([
        .value(
            "device", read: { name, section, decoder in decodeDevice(name, in: section, decoder: &decoder) },
            write: { TOMLWriter.string($0.description) }, get: { $0.device },
            set: { $0.device = $1 }),
        curve("curve", field: .curve, get: { $0.curve }, set: { $0.curve = $1 }),
        .inlineTable("curves", stateCurves, get: { $0.stateCurves }, set: { $0.stateCurves = $1 }),
        .integer(
            "min", range: 0...100, meaning: "a percent", get: { $0.minimum }, set: { $0.minimum = $1 }),
        .integer(
            "max", range: 1...100, meaning: "a percent", get: { $0.maximum }, set: { $0.maximum = $1 }),
        .number("tau", get: { $0.timeConstant }, set: { $0.timeConstant = $1 }),
        .number("dwell", get: { $0.dwell }, set: { $0.dwell = $1 }),
        .number("deadband", get: { $0.deadband }, set: { $0.deadband = $1 }),
        .number("ramp", get: { $0.rampRate }, set: { $0.rampRate = $1 }),
    ])

    /// `[backlight] curves`: a curve of its own for any theme state.
    static let stateCurves = ConfigurationTable<[AmbienceState: BrightnessCurve]>(
        AmbienceState.allCases.map { state in
            curve(
                state.rawValue, field: BacklightValues.curveField(state), get: { $0[state] },
                set: { $0[state] = $1 })
        })

    /// A `[[lux, percent], …]` key; `field` is the brightness engine's name for it.
    private static func curve<Settings>(
        _ name: String, field: BrightnessField, get: @escaping @Sendable (Settings) -> BrightnessCurve?,
        set: @escaping @Sendable (inout Settings, BrightnessCurve) -> Void
    ) -> ConfigurationKey<Settings> {
        .value(
            name,
            read: { name, section, decoder in decodeCurve(name, in: section, field: field, decoder: &decoder)
            },
            write: { curveText($0) }, get: get, set: set)
    }

    static func decodeDevice(
        _ name: String, in section: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder
    ) -> BacklightSettings.Device? {
        decoder.parsedString(name, in: section, BacklightSettings.Device.init) { text in
            "\"\(text)\" is not a backlight: use \"auto\", a name in /sys/class/backlight"
                + " (\"rpi_backlight\"), its directory (an absolute path), or \"ddc:BUS\""
        }
    }

    /// `[[lux, percent], …]`, validated by `BrightnessCurve`; nil when not given or refused.
    private static func decodeCurve(
        _ name: String, in section: ConfigurationDecoder.Section, field: BrightnessField,
        decoder: inout ConfigurationDecoder
    ) -> BrightnessCurve? {
        guard let (value, file) = decoder.value(name, in: section) else { return nil }
        let key = section.key(name)
        guard let items = value.array else {
            decoder.fail(
                key,
                "must be an array of [lux, percent] points, like [[1, 10], [500, 70]], not \(value.describedType)",
                file: file, line: value.position.line)
            return nil
        }
        var points: [BrightnessCurve.Point] = []
        for (index, item) in items.enumerated() {
            guard let pair = item.array, pair.count == 2, let lux = pair[0].number,
                let percent = pair[1].number
            else {
                decoder.fail(
                    key + "[\(index)]", "must be [lux, percent], like [500, 70]", file: file,
                    line: item.position.line)
                return nil
            }
            points.append(BrightnessCurve.Point(lux: lux, percent: percent))
        }
        do {
            return try BrightnessCurve(points, key: field.rawValue)
        } catch {
            decoder.fail(key, error.message, file: file, line: value.position.line)
            return nil
        }
    }

    /// `[backlight]` as `ambience check` prints it; a comment when there is none.
    static func backlightLines(_ settings: BacklightSettings?, path: String) -> [String] {
        guard let settings else {
            return ["", "# [backlight]: none, the display's brightness is left alone"]
        }
        return backlight.block(BacklightValues(settings), path: path)
    }

    private static func curveText(_ curve: BrightnessCurve) -> String {
        "["
            + curve.points.map {
                "[\(ConfigurationFormat.number($0.lux)), \(ConfigurationFormat.number($0.percent))]"
            }
            .joined(separator: ", ") + "]"
    }
}

/// `[backlight]` as the file gives it, before the brightness engine's values are validated
/// together (`BrightnessConfiguration`, whose values cannot be set one by one).
struct BacklightValues {
    var device: BacklightSettings.Device
    var curve: BrightnessCurve
    var stateCurves: [AmbienceState: BrightnessCurve]
    var minimum: Int
    var maximum: Int
    var timeConstant: Double
    var dwell: Double
    var deadband: Double
    var rampRate: Double

    init(_ settings: BacklightSettings) {
        let brightness = settings.brightness
        device = settings.device
        curve = brightness.curve
        stateCurves = [:]
        for state in AmbienceState.allCases {
            stateCurves[state] = Self.curve(of: brightness, for: state)
        }
        minimum = brightness.minimum
        maximum = brightness.maximum
        timeConstant = brightness.timeConstant
        dwell = brightness.dwell
        deadband = brightness.deadband
        rampRate = brightness.rampRate
    }

    func brightness() throws(ConfigurationError) -> BrightnessConfiguration {
        try BrightnessConfiguration(
            curve: curve, invertCurve: stateCurves[.invert], regularCurve: stateCurves[.regular],
            contrastCurve: stateCurves[.contrast], minimum: minimum, maximum: maximum,
            timeConstant: timeConstant, dwell: dwell, deadband: deadband, rampRate: rampRate)
    }

    /// The brightness engine's name for a state's curve, the key of its refusals.
    static func curveField(_ state: AmbienceState) -> BrightnessField {
        switch state {
        case .invert: .curveInvert
        case .regular: .curveRegular
        case .contrast: .curveContrast
        }
    }

    private static func curve(of brightness: BrightnessConfiguration, for state: AmbienceState)
        -> BrightnessCurve?
    {
        switch state {
        case .invert: brightness.invertCurve
        case .regular: brightness.regularCurve
        case .contrast: brightness.contrastCurve
        }
    }
}
