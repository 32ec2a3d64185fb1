import AmbienceCore
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem

/// `ambience run`'s devices: the configured chip on /dev/i2c-N or through the kernel, the GPIO
/// lines, the backlight class devices, DDC/CI monitors, HDMI-CEC and the touchscreens. What the
/// tests replace (the buses, libgpiod, sysfs) is injected.
public final class MachineDevices: Devices {
    /// Opens the configured bus: /dev/i2c-N for `run`, a mock in tests.
    public typealias OpenBus = (DaemonConfiguration.SensorSettings) throws(I2CError) -> any I2CBus

    private let clock: any Clock
    private let logger: Logger
    private let state: StateDirectory?
    private let gpio: any GPIODevices
    private let openBus: OpenBus
    private let openDDC: ReopeningI2CBus.Open
    private let classDirectory: String
    /// The DDC/CI monitors made in this assembly, one per bus.
    private var monitors: [(selector: I2CBusSelector, monitor: DDCMonitor)] = []

    /// `state` chooses the state directory (nil: as configured); `classDirectory` is
    /// /sys/class/backlight but in tests; `openDDC` opens a DDC/CI monitor's bus.
    public init(
        clock: any Clock, logger: Logger, state: StateDirectory? = nil, gpio: any GPIODevices = Libgpiod(),
        openBus: @escaping OpenBus = { settings throws(I2CError) in
            try ReopeningI2CBus(settings.bus) { selector throws(I2CError) in
                try LinuxI2CBus.open(selector, force: settings.force)
            }
        },
        openDDC: @escaping ReopeningI2CBus.Open = { selector throws(I2CError) in
            try LinuxI2CBus.open(selector)
        },
        classDirectory: String = SysfsBacklight.classDirectory
    ) {
        self.clock = clock
        self.logger = logger
        self.state = state
        self.gpio = gpio
        self.openBus = openBus
        self.openDDC = openDDC
        self.classDirectory = classDirectory
    }

    public var log: OutputLog { { [logger] in logger.log(.warning, $0) } }

    public func beginAssembly(_ configuration: DaemonConfiguration) { monitors = [] }

    public var renderTime: EventTimeRenderer { EventTime.wallClock(monotonic: clock) }

    public func stateDirectory(of configuration: DaemonConfiguration) -> String {
        guard let state else { return configuration.stateDirectory }
        return configuration.storing(in: state).stateDirectory
    }

    public func sensor(_ settings: DaemonConfiguration.SensorSettings) throws(DaemonError) -> any LightSensor
    {
        switch settings.chip.access {
        case .kernel(let check, let make):
            if let problem = check(settings.model) { throw .unavailable(problem) }
            return make(settings.model, clock)
        case .i2c:
            do {
                return Assembly.sensor(settings, bus: try openBus(settings), clock: clock)
            } catch {
                throw .unavailable(error.description)
            }
        }
    }

    public func indicators(_ settings: GPIOIndicator.Configuration?) throws(OutputError) -> (any Sink)? {
        guard let settings else { return nil }
        return try GPIOIndicator(settings, devices: gpio, log: log)
    }

    public func backlight(_ device: BacklightSettings.Device) throws(OutputError) -> (any Backlight)? {
        switch device {
        case .auto, .sysfs:
            return try SysfsBacklight(device: device.description, classDirectory: classDirectory, log: log)
        case .ddc(let selector):
            return try monitor(selector)
        }
    }

    public func display(_ device: DisplaySettings.Device) throws(OutputError) -> any DisplaySwitch {
        switch device {
        case .screen(.auto), .screen(.sysfs):
            return try SysfsDisplayPower(device: device.description, classDirectory: classDirectory, log: log)
        case .screen(.ddc(let selector)):
            return try monitor(selector)
        case .session:
            return SessionDisplay()
        case .cec(let number):
            return try CECDisplay.open(adapter: number, log: log)
        }
    }

    public func touchScreens() -> TouchScreens? { TouchScreens(log: log) }

    /// The monitor on `selector`, one for this assembly. A bus that is not there at start is an
    /// error, as the sensor's is; one that goes away later is the monitor's fault to log and retry.
    private func monitor(_ selector: I2CBusSelector) throws(OutputError) -> DDCMonitor {
        if let made = monitors.first(where: { $0.selector == selector }) { return made.monitor }
        do {
            let monitor = try DDCMonitor(selector, log: log, open: openDDC)
            monitors.append((selector, monitor))
            return monitor
        } catch {
            throw .bus(error)
        }
    }
}
