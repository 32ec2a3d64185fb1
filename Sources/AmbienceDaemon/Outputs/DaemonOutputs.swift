import AmbienceCore
import AmbienceOutputs
import AmbienceSystem

/// Every output of the daemon, in the order each sample, event and turn reaches them: the
/// backlight first, so that the record's row and the lines carry the brightness of the same
/// sample; then the display, the record, and the sinks in the order their lines go out (the
/// indicator lines, the pipes, the state file). A new output is one entry here.
struct DaemonOutputs {
    /// The record of the light, which `ambience record` and the tests read.
    let record: RecordOutput
    let all: [any Output]

    init(
        logger: Logger, overrides: OverridePersistence, wallClock: @escaping () -> Double,
        recordCapacity: Int, recordStores: @escaping (DaemonConfiguration) -> RecordStore?
    ) {
        record = RecordOutput(capacity: recordCapacity, stores: recordStores, logger: logger)
        all = [
            BacklightOutput(logger: logger, overrides: overrides),
            DisplayOutput(logger: logger, overrides: overrides, wallClock: wallClock),
            record,
            SinkOutput(.indicators), SinkOutput(.pipes), SinkOutput(.stateFile),
        ]
    }

    /// The outputs whose part is among `rebuilt` take their new devices.
    func adopt(_ parts: DaemonParts, rebuilt: Set<DaemonPart>) {
        for output in all {
            if let part = output.part, rebuilt.contains(part) { output.adopt(parts) }
        }
    }
}
