import AmbienceConfig
import AmbienceCore
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem

/// Builds the daemon's parts from a configuration, with the devices of `run` or of `simulate`.
/// Only the parts asked for are built; whatever was built before a failure is released, and a
/// failure says where in the file to look.
public enum Assembly {
    /// The inputs (the sensor, the control pipe), then each output's device in the outputs' order.
    public static func parts(
        _ configuration: DaemonConfiguration, _ wanted: Set<DaemonPart>, devices: any Devices
    ) throws(DaemonError) -> DaemonParts {
        devices.beginAssembly(configuration)
        var built = DaemonParts()
        if wanted.contains(.sensor) { built.sensor = try devices.sensor(configuration.sensor) }
        do throws(OutputError) {
            if wanted.contains(.control) {
                do {
                    built.control = try ControlPipe(
                        path: configuration.controlPipe, mode: .init(configuration.controlMode),
                        group: configuration.controlGroup, log: devices.log)
                } catch {
                    throw error.renamingKey { "control_" + $0 }
                }
            }
            for descriptor in DaemonOutputs.descriptors {
                guard let device = descriptor.device, wanted.contains(device.part) else { continue }
                do throws(OutputError) {
                    built.devices[device.part] = try device.build(configuration, devices)
                } catch {
                    guard let table = descriptor.table else { throw error }
                    throw error.renamingKey { table.name + "." + $0 }
                }
            }
            return built
        } catch {
            built.close(wanted)
            throw located(error, in: configuration)
        }
    }

    /// The configured chip's driver, made by its descriptor with its settings (a kernel chip's
    /// does not use `bus`).
    public static func sensor(
        _ settings: DaemonConfiguration.SensorSettings, bus: any I2CBus, clock: any Clock
    ) -> any LightSensor {
        settings.chip.makeSensor(settings.model, bus: bus, address: settings.address, clock: clock)
    }

    /// A key the devices refuse is placed where the file set it (exit 78); the rest cannot be
    /// used now (exit 1), and say why with their hints.
    package static func located(_ error: OutputError, in configuration: DaemonConfiguration) -> DaemonError {
        if let refusal = error.configurationError {
            return .configuration(ConfigFileErrors([configuration.locate(refusal)]))
        }
        return .unavailable(error.description)
    }
}
