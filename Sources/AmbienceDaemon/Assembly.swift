import AmbienceCore
import AmbienceOutputs
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem

/// Builds the daemon's parts from a configuration: the real ones for `run`, the emulated
/// sensor and terminal LEDs for `simulate`. Whatever was built before a failure is released.
public enum Assembly {
    /// `ambience run`: the configured chip on /dev/i2c-N, the GPIO lines, the pipes, the state
    /// file and the control pipe.
    public static func real(
        _ configuration: DaemonConfiguration, clock: any Clock, logger: Logger,
        devices: any GPIODevices = Libgpiod()
    ) throws -> DaemonParts {
        let bus = try LinuxI2CBus(number: configuration.sensor.bus, force: configuration.sensor.force)
        let indicator = try configuration.gpio.map { settings in
            try GPIOIndicator(settings, devices: devices, log: { logger.log(.warning, $0) })
        }
        do {
            return try parts(
                configuration, sensor: sensor(configuration.sensor, bus: bus, clock: clock),
                renderTime: EventTime.wallClock(monotonic: clock), logger: logger,
                indicators: indicator.map { [$0] } ?? [])
        } catch {
            indicator?.close()
            throw error
        }
    }

    /// `ambience simulate`: the configured chip emulated on a mock bus under `light`, with the
    /// indicator lines drawn by `indicators` instead of GPIO. `world` runs before each read with
    /// the time, to plug or unplug the chip as the simulation's script says.
    /// Event lines carry `wallClockStart` plus the simulated seconds.
    public static func simulated(
        _ configuration: DaemonConfiguration, bus: MockI2CBus, light: @escaping LightSource,
        world: @escaping (Double) -> Void, wallClockStart: Double, clock: any Clock, logger: Logger,
        indicators: any Sink
    ) throws -> DaemonParts {
        let settings = configuration.sensor
        switch settings.kind {
        case .bh1750: bus.attach(BH1750Emulator(light: light), at: settings.address)
        case .tsl2561:
            bus.attach(
                TSL2561Emulator(package: .tFnCl, infraredRatio: 0.3, light: light), at: settings.address)
        }
        let chip = SimulatedWorldSensor(
            chip: sensor(settings, bus: bus, clock: clock), clock: clock, world: world)
        return try parts(
            configuration, sensor: chip, renderTime: { "\"" + WallClock.iso8601(wallClockStart + $0) + "\"" },
            logger: logger, indicators: [indicators])
    }

    public static func sensor(
        _ settings: DaemonConfiguration.SensorSettings, bus: any I2CBus, clock: any Clock
    ) -> any LightSensor {
        switch settings.kind {
        case .bh1750: BH1750(bus: bus, address: settings.address, settings: settings.bh1750, clock: clock)
        case .tsl2561: TSL2561(bus: bus, address: settings.address, settings: settings.tsl2561, clock: clock)
        }
    }

    private static func parts(
        _ configuration: DaemonConfiguration, sensor: any LightSensor,
        renderTime: @escaping EventTimeRenderer,
        logger: Logger, indicators: [any Sink]
    ) throws -> DaemonParts {
        let log: OutputLog = { logger.log(.warning, $0) }
        var sinks = indicators
        do {
            for pipe in configuration.pipes.sinks {
                sinks.append(try NamedPipeSink(pipe, renderTime: renderTime, log: log))
            }
            sinks.append(try StateFileSink(path: configuration.stateFile, renderTime: renderTime, log: log))
            let control = try ControlPipe(
                path: configuration.controlPipe, mode: configuration.pipes.mode,
                group: configuration.pipes.group,
                key: "control_pipe", log: log)
            return DaemonParts(sensor: sensor, sinks: sinks, control: control)
        } catch {
            for sink in sinks[indicators.count...] { sink.close() }
            throw error
        }
    }
}

/// The emulated chip in its simulated world: the world moves on before each read.
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

    func read() throws(SensorError) -> Reading {
        world(clock.now)
        return try chip.read()
    }
}
