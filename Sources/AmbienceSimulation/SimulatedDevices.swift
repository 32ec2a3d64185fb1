import AmbienceCore
import AmbienceDaemon
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem

/// `ambience simulate`'s devices: the configured chip emulated on a mock bus under `light`, the
/// indicator lines drawn by `indicators` instead of GPIO, a DDC/CI monitor or a television
/// emulated and driven by the daemon's own drivers. `world` runs before each step of a
/// measurement with the time, to plug or unplug the chip as the simulation's script says. Event
/// lines carry `wallClockStart` plus the simulated seconds.
public final class SimulatedDevices: Devices {
    private let bus: MockI2CBus
    private let light: LightSource
    private let world: (Double) -> Void
    private let wallClockStart: Double
    private let clock: any Clock
    private let logger: Logger
    private let indicatorSink: any Sink
    /// The configuration being assembled, and the emulated monitor made for it.
    private var assembling: DaemonConfiguration?
    private var monitor: DDCMonitor?

    public init(
        bus: MockI2CBus, light: @escaping LightSource, world: @escaping (Double) -> Void,
        wallClockStart: Double,
        clock: any Clock, logger: Logger, indicators: any Sink
    ) {
        self.bus = bus
        self.light = light
        self.world = world
        self.wallClockStart = wallClockStart
        self.clock = clock
        self.logger = logger
        indicatorSink = indicators
    }

    public var log: OutputLog { { [logger] in logger.log(.warning, $0) } }

    public func beginAssembly(_ configuration: DaemonConfiguration) {
        assembling = configuration
        monitor = nil
    }

    public var renderTime: EventTimeRenderer {
        { [wallClockStart] in "\"" + WallClock.iso8601(wallClockStart + $0) + "\"" }
    }

    public func stateDirectory(of configuration: DaemonConfiguration) -> String {
        configuration.stateDirectory
    }

    public func sensor(_ settings: DaemonConfiguration.SensorSettings) throws(DaemonError) -> any LightSensor
    {
        var settings = settings
        // A chip no bus reaches (the kernel's) cannot run on the mock bus: a stand-in does.
        if !settings.chip.usesBus {
            settings.kind = ChipEmulators.standIn
            settings.address = settings.chip.defaultAddress
        }
        guard let emulator = ChipEmulators.emulator(settings.kind) else {
            throw .unavailable("no emulator for the \(settings.kind) in ChipEmulators.all")
        }
        bus.attach(emulator.make(light), at: settings.address)
        return SimulatedWorldSensor(
            chip: Assembly.sensor(settings, bus: bus, clock: clock), clock: clock, world: world)
    }

    /// The terminal's lines, whether or not `[gpio]` names any.
    public func indicators(_ settings: GPIOIndicator.Configuration?) throws(OutputError) -> (any Sink)? {
        indicatorSink
    }

    /// A DDC/CI monitor is the emulated one on the mock bus; a sysfs backlight has no stand-in,
    /// so its brightness is not driven (the engine's percent still shows on the terminal and in
    /// the lines).
    public func backlight(_ device: BacklightSettings.Device) throws(OutputError) -> (any Backlight)? {
        if case .ddc(let selector) = device { return emulatedMonitor(selector) }
        logger.log(
            .info, "simulating no sysfs backlight for \"\(device)\": its percent is shown, nothing is written"
        )
        return nil
    }

    /// The emulated monitor (unless `[backlight]` has it on another bus: the mock bus has one), the
    /// emulated television, or a `SimulatedDisplay` that takes every wish.
    public func display(_ device: DisplaySettings.Device) throws(OutputError) -> any DisplaySwitch {
        var backlightOnAnotherMonitor = false
        if let assembling, case .ddc? = assembling.backlight?.device, assembling.sharedMonitor == nil {
            backlightOnAnotherMonitor = true
        }
        if case .screen(.ddc(let selector)) = device, !backlightOnAnotherMonitor {
            return emulatedMonitor(selector)
        }
        if case .cec(let number) = device {
            return CECDisplay(adapter: EmulatedTelevision(), name: "cec\(number)", log: log)
        }
        return SimulatedDisplay(name: device.description)
    }

    /// No touchscreen is simulated.
    public func touchScreens() -> TouchScreens? { nil }

    private func emulatedMonitor(_ selector: I2CBusSelector) -> DDCMonitor {
        if let monitor { return monitor }
        DDCMonitorEmulator.attach(to: bus)
        let made = DDCMonitor(bus: bus, name: DDCMonitor.name(of: selector), log: log)
        monitor = made
        return made
    }
}

/// The emulated chip in its simulated world: the world moves on before each step of a measurement.
final class SimulatedWorldSensor: LightSensor {
    private let chip: any LightSensor
    private let clock: any Clock
    private let world: (Double) -> Void

    init(chip: any LightSensor, clock: any Clock, world: @escaping (Double) -> Void) {
        self.chip = chip
        self.clock = clock
        self.world = world
    }

    var description: String { chip.description }

    func measure() throws(SensorError) -> SensorProgress {
        world(clock.now)
        return try chip.measure()
    }
}
