import AmbienceConfig
import AmbienceCore
import AmbienceOutputs

/// The daemon's settings while the file is read, table by table: what spans tables is checked
/// as they are read (the sensor is required; the engine's values, from three tables and
/// `sensor.interval`, hold together), and then they make a `DaemonConfiguration`. A
/// configuration is written back through the same tables.
struct DaemonTables {
    var board: String?
    var stateFile = StateFileSink.defaultPath
    var controlPipe = ControlPipe.defaultPath
    var controlMode = UInt32(ControlPipe.defaultMode)
    var controlGroup: String?
    var stateDirectory = OverrideStore.defaultDirectory
    /// Nil when `[sensor]` names no kind, or a wrong one.
    var sensor: DaemonConfiguration.SensorSettings?
    var sampleInterval: Double?
    /// The engine's values as the file gives them; `validEngine` once they are checked together.
    var engine = EngineValues(.indoorKiosk)
    var validEngine = EngineConfiguration.indoorKiosk
    var gpio: GPIOIndicator.Configuration?
    var pipes = DaemonConfiguration.PipeSettings()
    var record = DaemonConfiguration.RecordSettings()
    var backlight: BacklightSettings?
    var display: DisplaySettings?

    init(board: String?) {
        self.board = board
    }

    init(_ configuration: DaemonConfiguration) {
        board = configuration.board
        stateFile = configuration.stateFile
        controlPipe = configuration.controlPipe
        controlMode = configuration.controlMode
        controlGroup = configuration.controlGroup
        stateDirectory = configuration.stateDirectory
        sensor = configuration.sensor
        sampleInterval = configuration.engine.sampleInterval
        engine = EngineValues(configuration.engine)
        validEngine = configuration.engine
        gpio = configuration.gpio
        pipes = configuration.pipes
        record = configuration.record
        backlight = configuration.backlight
        display = configuration.display
    }

    /// The configuration, when there is a sensor.
    var configuration: DaemonConfiguration? {
        guard let sensor else { return nil }
        var configuration = DaemonConfiguration(
            board: board, sensor: sensor, engine: validEngine, gpio: gpio, pipes: pipes, stateFile: stateFile,
            controlPipe: controlPipe, controlMode: controlMode, controlGroup: controlGroup,
            stateDirectory: stateDirectory)
        configuration.record = record
        configuration.backlight = backlight
        configuration.display = display
        return configuration
    }

    /// Checks the engine's values together, once the last of their tables is read; a refusal is
    /// placed at the key it names, and the defaults are kept.
    mutating func validateEngine(decoder: inout ConfigurationDecoder) {
        let defaults = EngineConfiguration.indoorKiosk
        let thresholds: Thresholds
        do {
            thresholds = try Thresholds(
                invertRegular: engine.invertRegular, regularContrast: engine.regularContrast)
        } catch {
            decoder.adopt(error.renamingKey(DaemonConfiguration.fileKey))
            // Go on with the defaults so that the timing is checked too.
            thresholds = defaults.thresholds
        }
        do {
            validEngine = try EngineConfiguration(
                thresholds: thresholds, timeConstant: engine.timeConstant, minimumDwell: engine.minimumDwell,
                latencyBound: engine.latencyBound, sampleInterval: sampleInterval ?? defaults.sampleInterval,
                faultAfter: engine.faultAfter)
        } catch {
            decoder.adopt(error.renamingKey(DaemonConfiguration.fileKey))
            validEngine = defaults
        }
    }
}

/// The engine's values as `[filter]`, `[thresholds]` and `[timing]` give them, before they are
/// validated together (`EngineConfiguration`, whose values cannot be set one by one).
struct EngineValues {
    var timeConstant: Double
    var invertRegular: Boundary
    var regularContrast: Boundary
    var minimumDwell: Double
    var latencyBound: Double
    var faultAfter: Double

    init(_ engine: EngineConfiguration) {
        timeConstant = engine.timeConstant
        invertRegular = engine.thresholds.invertRegular
        regularContrast = engine.thresholds.regularContrast
        minimumDwell = engine.minimumDwell
        latencyBound = engine.latencyBound
        faultAfter = engine.faultAfter
    }
}
