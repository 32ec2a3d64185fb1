import AmbienceCore
import AmbienceOutputs
import AmbienceRecord
import AmbienceSystem

/// The recent samples (`ambience record`, the control line `record`) and their way to the
/// persistent record: rows go to the store in batches, not one write a sample.
final class RecordOutput: Output {
    private(set) var record: LightRecord
    /// Where the record is persisted, if it is: its device, made again when a reload moves it.
    private(set) var store: RecordStore?
    private let logger: Logger
    /// The configuration the rows are being made under.
    private var configuration: DaemonConfiguration?
    /// `[record] flush_interval`, read once per configuration rather than at every sample.
    private var flushInterval = DaemonConfiguration.RecordSettings.defaultFlushInterval
    /// How many of the record's rows (`LightRecord.appended`) the store has, and since when.
    private var persistedRows = 0
    private var lastPersisted = 0.0
    private var trouble: FaultReport

    init(capacity: Int, logger: Logger) {
        record = LightRecord(capacity: capacity)
        self.logger = logger
        trouble = FaultReport(
            log: { [logger] in logger.log(.error, $0) }, recovery: { [logger] in logger.log(.notice, $0) })
    }

    /// A reload's new store: the rows so far go first to the store they were meant for, with the
    /// parameters they were made with.
    func adopt(_ device: (any OutputDevice)?) {
        if record.appended > persistedRows { write() }
        store = device as? RecordStore
    }

    func start(_ configuration: DaemonConfiguration, at time: Double) {
        self.configuration = configuration
        flushInterval = configuration.record.flushInterval
        lastPersisted = time
    }

    /// Before `running` gives way to `next`: the rows so far go out with the parameters they
    /// were made with (a moved store took them in `adopt`).
    func reconfigure(from running: DaemonConfiguration, to next: DaemonConfiguration, at time: Double) {
        let moves = OutputDeviceDescriptor.record.changed(running, next)
        if moves || next.engine.timeConstant != running.engine.timeConstant
            || next.engine.sampleInterval != running.engine.sampleInterval
        {
            persist(at: time)
        }
        configuration = next
        flushInterval = next.record.flushInterval
    }

    func sampled(_ row: LightRecord.Row) {
        record.append(row)
        guard store != nil else { return }
        // Rows go to disk in batches: at most every flush interval, or sooner when the ring would
        // otherwise drop rows not yet written.
        if row.time - lastPersisted >= flushInterval
            || record.appended - persistedRows >= record.capacity / 2
        {
            persist(at: row.time)
        }
    }

    func take(_ input: ControlPipe.Input, from control: ControlPipe, at time: Double) -> Bool {
        guard case .record = input else { return false }
        do {
            try control.writeRecord(record)
        } catch {
            logger.log(.error, "record not written: \(error)")
        }
        return true
    }

    func stop(at time: Double) { persist(at: time) }

    /// Writes the rows not yet written, and counts the flush interval from `time`.
    private func persist(at time: Double) {
        guard store != nil, configuration != nil else { return }
        lastPersisted = time
        write()
    }

    /// Writes the rows not yet written, made under the configuration they were made with.
    private func write() {
        guard let store, let configuration else { return }
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
}
