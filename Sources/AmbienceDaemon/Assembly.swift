import AmbienceConfig
import AmbienceCore
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem

/// Builds the daemon's parts from a configuration: the real ones for `run` (the emulated sensor
/// and terminal LEDs for `simulate` are AmbienceSimulation's). Only the parts asked for are built;
/// whatever was built before a failure is released, and a failure says where in the file to look.
public enum Assembly {
    /// Opens the configured bus: /dev/i2c-N for `run`, a mock in tests.
    public typealias OpenBus = (DaemonConfiguration.SensorSettings) throws(I2CError) -> any I2CBus

    /// `ambience run`: the configured chip on /dev/i2c-N, the GPIO lines, the pipes, the state
    /// file and the control pipe.
    public static func real(
        _ configuration: DaemonConfiguration, parts wanted: Set<DaemonPart>, clock: any Clock, logger: Logger,
        devices: any GPIODevices = Libgpiod(),
        openBus: OpenBus = { settings throws(I2CError) in
            try ReopeningI2CBus(settings.bus) { selector throws(I2CError) in
                try LinuxI2CBus.open(selector, force: settings.force)
            }
        }
    ) throws(DaemonError) -> DaemonParts {
        var built = DaemonParts()
        if wanted.contains(.sensor) {
            let settings = configuration.sensor
            let chip = settings.chip
            switch chip.access {
            case .kernel(let check, let make):
                if let problem = check(settings.model) { throw .unavailable(problem) }
                built.sensor = make(settings.model, clock)
            case .i2c:
                do {
                    built.sensor = sensor(settings, bus: try openBus(settings), clock: clock)
                } catch {
                    throw .unavailable(error.description)
                }
            }
        }
        do throws(OutputError) {
            if wanted.contains(.indicators), let settings = configuration.gpio {
                do {
                    built.indicators = try GPIOIndicator(
                        settings, devices: devices, log: { logger.log(.warning, $0) })
                } catch {
                    throw error.renamingKey { "gpio." + $0 }
                }
            }
            try files(
                configuration, parts: wanted, renderTime: EventTime.wallClock(monotonic: clock),
                logger: logger,
                into: &built)
            let controls = try displayControls(
                configuration, parts: wanted, log: { logger.log(.warning, $0) })
            built.backlight = controls.backlight
            built.display = controls.display
            if wanted.contains(.display), configuration.display?.touch == true {
                built.touch = TouchScreens(log: { logger.log(.warning, $0) })
            }

            return built
        } catch {
            built.close(wanted)
            throw located(error, in: configuration)
        }
    }

    /// The configured display's brightness control. `classDirectory` is /sys/class/backlight
    /// but in tests; `openDDC` opens a DDC/CI monitor's bus (/dev/i2c-N, a mock in tests).
    package static func backlight(
        _ settings: BacklightSettings, classDirectory: String = SysfsBacklight.classDirectory,
        openDDC: @escaping ReopeningI2CBus.Open = { selector throws(I2CError) in
            try LinuxI2CBus.open(selector)
        },
        log: @escaping OutputLog
    ) throws(OutputError) -> any Backlight {
        switch settings.device {
        case .auto, .sysfs:
            do {
                return try SysfsBacklight(
                    device: settings.device.description, classDirectory: classDirectory, log: log)
            } catch {
                throw error.renamingKey { "backlight." + $0 }
            }
        case .ddc(let selector):
            return try ddcMonitor(selector, openDDC: openDDC, log: log)
        }
    }

    /// The display's brightness control and power switch, as far as `wanted` names them: one
    /// monitor for both when they are the same DDC/CI monitor (`sharedMonitor`), so its messages
    /// keep the standard's pace; else each its own.
    package static func displayControls(
        _ configuration: DaemonConfiguration, parts wanted: Set<DaemonPart>,
        classDirectory: String = SysfsBacklight.classDirectory,
        openDDC: @escaping ReopeningI2CBus.Open = { selector throws(I2CError) in
            try LinuxI2CBus.open(selector)
        },
        log: @escaping OutputLog
    ) throws(OutputError) -> (backlight: (any Backlight)?, display: (any DisplaySwitch)?) {
        if let selector = configuration.sharedMonitor {
            guard wanted.contains(.backlight) || wanted.contains(.display) else { return (nil, nil) }
            let monitor = try ddcMonitor(selector, openDDC: openDDC, log: log)
            return (wanted.contains(.backlight) ? monitor : nil, wanted.contains(.display) ? monitor : nil)
        }
        var backlight: (any Backlight)?
        if wanted.contains(.backlight), let settings = configuration.backlight {
            backlight = try Self.backlight(
                settings, classDirectory: classDirectory, openDDC: openDDC, log: log)
        }
        guard wanted.contains(.display), let device = configuration.displayDevice else {
            return (backlight, nil)
        }
        switch device {
        case .screen(.auto), .screen(.sysfs):
            do {
                let display = try SysfsDisplayPower(
                    device: device.description, classDirectory: classDirectory, log: log)
                return (backlight, display)
            } catch {
                backlight?.close()
                throw error.renamingKey { "display." + $0 }
            }
        case .screen(.ddc(let selector)):
            do {
                return (backlight, try ddcMonitor(selector, openDDC: openDDC, log: log))
            } catch {
                backlight?.close()
                throw error
            }
        case .session:
            return (backlight, SessionDisplay())
        case .cec(let number):
            do {
                return (backlight, try CECDisplay.open(adapter: number, log: log))
            } catch {
                backlight?.close()
                throw error.renamingKey { "display." + $0 }
            }
        }
    }

    /// A monitor on its bus: a bus that is not there at start is an error, as the sensor's is;
    /// one that goes away later is the monitor's fault to log and retry.
    private static func ddcMonitor(
        _ selector: I2CBusSelector, openDDC: @escaping ReopeningI2CBus.Open, log: @escaping OutputLog
    ) throws(OutputError) -> DDCMonitor {
        do {
            return try DDCMonitor(selector, log: log, open: openDDC)
        } catch {
            throw .bus(error)
        }
    }

    /// The configured chip's driver, made by its descriptor with its settings (a kernel chip's
    /// does not use `bus`).
    public static func sensor(
        _ settings: DaemonConfiguration.SensorSettings, bus: any I2CBus, clock: any Clock
    ) -> any LightSensor {
        settings.chip.makeSensor(settings.model, bus: bus, address: settings.address, clock: clock)
    }

    /// The pipes, the state file and the control pipe, as far as `wanted` names them.
    package static func files(
        _ configuration: DaemonConfiguration, parts wanted: Set<DaemonPart>,
        renderTime: @escaping EventTimeRenderer, logger: Logger, into built: inout DaemonParts
    ) throws(OutputError) {
        let log: OutputLog = { logger.log(.warning, $0) }
        if wanted.contains(.pipes) {
            for pipe in configuration.pipes.sinks {
                do {
                    built.pipes.append(try NamedPipeSink(pipe, renderTime: renderTime, log: log))
                } catch {
                    throw error.renamingKey { "pipes." + $0 }
                }
            }
        }
        if wanted.contains(.stateFile) {
            built.stateFile = try StateFileSink(
                path: configuration.stateFile, renderTime: renderTime, log: log)
        }
        if wanted.contains(.control) {
            do {
                built.control = try ControlPipe(
                    path: configuration.controlPipe, mode: .init(configuration.controlMode),
                    group: configuration.controlGroup, log: log)
            } catch {
                throw error.renamingKey { "control_" + $0 }
            }
        }
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
