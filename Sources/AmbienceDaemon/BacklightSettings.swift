import AmbienceConfig
import AmbienceCore
import AmbienceSensors
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
        decoder.allowOnly(
            ["device", "curve", "curves", "min", "max", "tau", "dwell", "deadband", "ramp"], in: section)
        var device = BacklightSettings.Device.auto
        if let (text, line, file) = decoder.string("device", in: section) {
            if let parsed = BacklightSettings.Device(text) {
                device = parsed
            } else {
                decoder.fail(
                    section.key("device"),
                    "\"\(text)\" is not a backlight: use \"auto\", a name in /sys/class/backlight"
                        + " (\"rpi_backlight\"), its directory (an absolute path), or \"ddc:BUS\"",
                    file: file, line: line)
            }
        }
        let defaults = BrightnessConfiguration.indoorKiosk
        let curve = decodeCurve("curve", in: section, field: .curve, decoder: &decoder) ?? defaults.curve
        let curves = decoder.section("curves", of: section)
        decoder.allowOnly(AmbienceState.allCases.map { $0.rawValue }, in: curves)
        let invert = decodeCurve("invert", in: curves, field: .curveInvert, decoder: &decoder)
        let regular = decodeCurve("regular", in: curves, field: .curveRegular, decoder: &decoder)
        let contrast = decodeCurve("contrast", in: curves, field: .curveContrast, decoder: &decoder)
        let minimum =
            decoder.integer("min", in: section, range: 0...100, meaning: "a percent") ?? defaults.minimum
        let maximum =
            decoder.integer("max", in: section, range: 1...100, meaning: "a percent") ?? defaults.maximum
        do {
            let brightness = try BrightnessConfiguration(
                curve: curve, invertCurve: invert, regularCurve: regular, contrastCurve: contrast,
                minimum: minimum, maximum: maximum,
                timeConstant: decoder.number("tau", in: section) ?? defaults.timeConstant,
                dwell: decoder.number("dwell", in: section) ?? defaults.dwell,
                deadband: decoder.number("deadband", in: section) ?? defaults.deadband,
                rampRate: decoder.number("ramp", in: section) ?? defaults.rampRate)
            return BacklightSettings(device: device, brightness: brightness)
        } catch {
            decoder.adopt(error.renamingKey(backlightFileKey))
            return BacklightSettings(device: device)
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

    /// `[backlight]` as `ambience check` prints it; nothing when there is none.
    func backlightLines() -> [String] {
        guard let backlight else {
            return ["", "# [backlight]: none, the display's brightness is left alone"]
        }
        typealias Format = ConfigurationFormat
        let settings = backlight.brightness
        func curveText(_ curve: BrightnessCurve) -> String {
            "["
                + curve.points.map { "[\(Format.number($0.lux)), \(Format.number($0.percent))]" }
                .joined(separator: ", ") + "]"
        }
        let stateCurves = [
            ("invert", settings.invertCurve), ("regular", settings.regularCurve),
            ("contrast", settings.contrastCurve),
        ].compactMap { name, curve in curve.map { "\(name) = \(curveText($0))" } }
        return [
            "", "[backlight]", "device = \(TOMLWriter.string(backlight.device.description))",
            "curve = \(curveText(settings.curve))",
            "curves = " + (stateCurves.isEmpty ? "{}" : "{ " + stateCurves.joined(separator: ", ") + " }"),
            "min = \(settings.minimum)", "max = \(settings.maximum)",
            "tau = \(Format.number(settings.timeConstant))",
            "dwell = \(Format.number(settings.dwell))", "deadband = \(Format.number(settings.deadband))",
            "ramp = \(Format.number(settings.rampRate))",
        ]
    }
}
