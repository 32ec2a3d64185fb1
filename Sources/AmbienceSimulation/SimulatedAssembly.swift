import AmbienceCore
import AmbienceDaemon
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem

extension Assembly {
    /// `ambience simulate`: the configured chip emulated on a mock bus under `light`, with the
    /// indicator lines drawn by `indicators` instead of GPIO. `world` runs before each step of a
    /// measurement with the time, to plug or unplug the chip as the simulation's script says.
    /// Event lines carry `wallClockStart` plus the simulated seconds.
    public static func simulated(
        _ configuration: DaemonConfiguration, parts wanted: Set<DaemonPart>, bus: MockI2CBus,
        light: @escaping LightSource, world: @escaping (Double) -> Void, wallClockStart: Double,
        clock: any Clock, logger: Logger, indicators: any Sink
    ) throws(DaemonError) -> DaemonParts {
        var built = DaemonParts()
        if wanted.contains(.sensor) {
            var settings = configuration.sensor
            // A chip no bus reaches (the kernel's) cannot run on the mock bus: a stand-in does.
            if !settings.chip.usesBus {
                settings.kind = ChipEmulators.standIn
                settings.address = settings.chip.defaultAddress
            }
            guard let emulator = ChipEmulators.emulator(settings.kind) else {
                throw .unavailable("no emulator for the \(settings.kind) in ChipEmulators.all")
            }
            bus.attach(emulator.make(light), at: settings.address)
            built.sensor = SimulatedWorldSensor(
                chip: sensor(settings, bus: bus, clock: clock), clock: clock, world: world)
        }
        if wanted.contains(.indicators) { built.indicators = indicators }
        (built.backlight, built.display) = simulatedDisplayControls(
            configuration, parts: wanted, bus: bus, logger: logger)
        do throws(OutputError) {
            try files(
                configuration, parts: wanted,
                renderTime: { "\"" + WallClock.iso8601(wallClockStart + $0) + "\"" }, logger: logger,
                into: &built)
            return built
        } catch {
            built.close(wanted.subtracting([.indicators]))
            throw located(error, in: configuration)
        }
    }
}

extension Assembly {
    /// `[backlight]` and `[display]` in `simulate`: a DDC/CI monitor (`ddc:BUS`) is the emulated
    /// one on the mock bus, driven by the daemon's own driver (one for both when both name it); a
    /// television (`cec:N`) is the emulated one, driven by the daemon's CEC driver; a
    /// sysfs backlight has no stand-in, so its brightness is not driven (the engine's percent still
    /// shows on the terminal and in the lines), and its power is a `SimulatedDisplay`.
    static func simulatedDisplayControls(
        _ configuration: DaemonConfiguration, parts wanted: Set<DaemonPart>, bus: MockI2CBus, logger: Logger
    ) -> (backlight: (any Backlight)?, display: (any DisplaySwitch)?) {
        let log: OutputLog = { logger.log(.warning, $0) }
        var shared: DDCMonitor?
        func monitor(_ selector: I2CBusSelector) -> DDCMonitor {
            if let shared { return shared }
            DDCMonitorEmulator.attach(to: bus)
            let made = DDCMonitor(bus: bus, name: DDCMonitor.name(of: selector), log: log)
            shared = made
            return made
        }
        var backlight: (any Backlight)?
        if wanted.contains(.backlight), let settings = configuration.backlight {
            if case .ddc(let selector) = settings.device {
                backlight = monitor(selector)
            } else {
                logger.log(
                    .info,
                    "simulating no sysfs backlight for \"\(settings.device)\": its percent is shown, nothing is written"
                )
            }
        }
        guard wanted.contains(.display), let device = configuration.displayDevice else {
            return (backlight, nil)
        }
        // The mock bus has one emulated monitor: a display on another monitor than the
        // backlight's is simulated without one.
        var backlightOnAnotherMonitor = false
        if case .ddc? = configuration.backlight?.device, configuration.sharedMonitor == nil {
            backlightOnAnotherMonitor = true
        }
        if case .screen(.ddc(let selector)) = device, !backlightOnAnotherMonitor {
            return (backlight, monitor(selector))
        }
        if case .cec(let number) = device {
            return (backlight, CECDisplay(adapter: EmulatedTelevision(), name: "cec\(number)", log: log))
        }
        return (backlight, SimulatedDisplay(name: device.description))
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
