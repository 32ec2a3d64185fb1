import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceSensors

/// The daemon's configuration while the file is read: the configuration itself, and what is
/// known only once several tables are read (whether `[sensor]` named a chip; the engine's
/// values, from three tables and `sensor.interval`, before they are checked together). A
/// configuration is written back through the same tables.
struct DaemonTables {
    var configuration: DaemonConfiguration
    /// False while `[sensor]` names no kind, or a wrong one: there is no configuration then.
    var hasSensor: Bool
    var sampleInterval: Double?
    /// The engine's values as the file gives them; `configuration.engine` once they are checked
    /// together.
    var engine: EngineValues

    init(board: String?) {
        configuration = DaemonConfiguration(board: board, sensor: .init(kind: SensorKind.allCases[0]))
        hasSensor = false
        engine = EngineValues(configuration.engine)
    }

    init(_ configuration: DaemonConfiguration) {
        self.configuration = configuration
        hasSensor = true
        sampleInterval = configuration.engine.sampleInterval
        engine = EngineValues(configuration.engine)
    }

    /// The configuration, when there is a sensor.
    var valid: DaemonConfiguration? { hasSensor ? configuration : nil }

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
            configuration.engine = try EngineConfiguration(
                thresholds: thresholds, timeConstant: engine.timeConstant, minimumDwell: engine.minimumDwell,
                latencyBound: engine.latencyBound, sampleInterval: sampleInterval ?? defaults.sampleInterval,
                faultAfter: engine.faultAfter)
        } catch {
            decoder.adopt(error.renamingKey(DaemonConfiguration.fileKey))
            configuration.engine = defaults
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
