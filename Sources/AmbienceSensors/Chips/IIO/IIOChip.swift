import AmbienceConfig
import AmbienceCore
import AmbienceSystem

extension SensorKind {
    /// A light sensor a kernel driver has, read through IIO: no bus or address of its own.
    public static let iio = SensorKind("iio")
}

extension IIOLightSensor {
    /// The IIO device, `device` in `[sensor]`: its `name` ("bh1750") or its sysfs directory.
    public struct Settings: ChipSettings {
        public var device: String?

        public init(device: String? = nil) { self.device = device }

        public static var defaults: Self { Self() }
        public var model: SensorModel { .iio(self) }

        public init?(_ model: SensorModel) {
            guard case .iio(let settings) = model else { return nil }
            self = settings
        }
    }

    /// `kind = "iio"` with `device` in `[sensor]` itself; not looked for on a bus (`probe` lists
    /// the IIO devices apart).
    public static let chip = ChipDescriptor(
        Settings.self, name: "IIO light sensor", sensorKeys: ["device"],
        decode: { sensor, chosen, decoder in
            let device = decoder.string("device", in: sensor)
            if chosen == .iio, device == nil {
                decoder.missing(
                    "device", in: sensor,
                    "required with kind = \"iio\": the IIO device's name (\"bh1750\") or its directory")
            } else if let chosen, chosen != .iio, let device {
                decoder.fail(
                    sensor.key("device"), "only for kind = \"iio\", not \"\(chosen.rawValue)\"",
                    file: device.file,
                    line: device.line)
            }
            return Settings(device: device?.value)
        },
        render: { settings in [("device", ConfigurationFormat.string(settings.device ?? ""))] },
        access: .kernel(
            check: { settings in
                // As a wrong bus is, a device that is not there is reported at once.
                do throws(IIOError) {
                    _ = try IIOChannel.find(settings.device ?? "")
                    return nil
                } catch {
                    return "IIO light sensor: \(error)"
                }
            },
            make: { settings, clock in
                IIOLightSensor(device: settings.device ?? "", clock: clock)
            }))
}
