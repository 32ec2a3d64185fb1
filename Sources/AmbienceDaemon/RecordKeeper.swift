import AmbienceCore
import AmbienceOutputs
import AmbienceSystem

/// The recent samples (`ambience record`, the control line `record`) and their way to the
/// persistent record: rows go to the store in batches, not one write a sample.
struct RecordKeeper {
    private(set) var record: LightRecord
    /// Where the record is persisted, if it is; made again when a reload moves it.
    private(set) var store: RecordStore?
    private let stores: (DaemonConfiguration) -> RecordStore?
    /// How many of the record's rows (`LightRecord.appended`) the store has, and since when.
    private var persistedRows = 0
    private var lastPersisted = 0.0
    private var trouble: FaultReport

    init(capacity: Int, stores: @escaping (DaemonConfiguration) -> RecordStore?, logger: Logger) {
        record = LightRecord(capacity: capacity)
        self.stores = stores
        trouble = FaultReport(
            log: { [logger] in logger.log(.error, $0) }, recovery: { [logger] in logger.log(.notice, $0) })
    }

    mutating func start(under configuration: DaemonConfiguration, at time: Double) {
        store = stores(configuration)
        lastPersisted = time
    }

    mutating func append(_ row: LightRecord.Row, under configuration: DaemonConfiguration) {
        record.append(row)
        // Rows go to disk in batches: at most every flush interval, or sooner when the ring would
        // otherwise drop rows not yet written.
        if store != nil,
            row.time - lastPersisted >= configuration.record.flushInterval
                || record.appended - persistedRows >= record.capacity / 2
        {
            persist(at: row.time, under: configuration)
        }
    }

    /// Writes the rows not yet written, made under `configuration`.
    mutating func persist(at time: Double, under configuration: DaemonConfiguration) {
        guard let store else { return }
        lastPersisted = time
        do {
            try store.append(
                from: record, after: persistedRows,
                parameters: CompactRecord.Parameters(
                    timeConstant: configuration.engine.timeConstant,
                    interval: configuration.engine.sampleInterval))
            trouble.succeeded("record persisted again in \(store.path)")
        } catch {
            trouble.failed("record not persisted: \(error)")
        }
        // Rows that could not be written are not retried: the next batch goes on from here, so
        // a full disk costs one failed write per interval, not a growing backlog.
        persistedRows = record.appended
    }

    /// Before `running` gives way to `next`: the rows so far go out with the parameters they
    /// were made with, and to the store they were meant for.
    mutating func reload(
        from running: DaemonConfiguration, to next: DaemonConfiguration, at now: @autoclosure () -> Double
    ) {
        let moves = next.record != running.record || next.stateDirectory != running.stateDirectory
        if moves || next.engine.timeConstant != running.engine.timeConstant
            || next.engine.sampleInterval != running.engine.sampleInterval
        {
            persist(at: now(), under: running)
        }
        if moves { store = stores(next) }
    }
}
