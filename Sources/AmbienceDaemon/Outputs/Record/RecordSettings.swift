import AmbienceConfig
import AmbienceCore
import AmbienceOutputs

extension OutputDescriptor {
    /// The record of the light (`[record]`): the recent samples, and their way to disk.
    static let record = OutputDescriptor(
        table: .table(
            "record", DaemonConfiguration.record, get: { $0.configuration.record },
            set: { $0.configuration.record = $1 }),
        device: .record,
        make: { context in RecordOutput(capacity: context.recordCapacity, logger: context.logger) })
}

extension DaemonPart {
    public static let record = DaemonPart("record")
}

/// The persistent record's file is opened for each batch, so there is nothing to close.
extension RecordStore: OutputDevice {
    public func close() {}
}

extension OutputDeviceDescriptor {
    /// The store in the state directory, unless `[record] persist = false`.
    static let record = OutputDeviceDescriptor(
        part: .record,
        changed: { old, new in old.record != new.record || old.stateDirectory != new.stateDirectory },
        build: { configuration, devices throws(OutputError) in
            guard configuration.record.persist else { return nil }
            return RecordStore(
                directory: devices.stateDirectory(of: configuration),
                maximumBytes: configuration.record.maximumBytes)
        })
}

extension DaemonConfiguration {
    /// `[record]`.
    public var record: RecordSettings {
        get { outputs["record", default: RecordSettings()] }
        set { outputs["record", default: RecordSettings()] = newValue }
    }
}

extension DaemonConfiguration {
    /// The persistent record of the light (`[record]`): rows from the daemon's ring appended to
    /// `state_directory/record.csv` at most every `flushInterval` (and at shutdown).
    public struct RecordSettings: Equatable, Sendable {
        public static let defaultFlushInterval = 300.0
        public static let defaultMaximumBytes: Int64 = 2_000_000

        public var persist: Bool
        public var flushInterval: Double
        /// The file is rotated to record.csv.1 when it reaches this size.
        public var maximumBytes: Int64

        public init(
            persist: Bool = true, flushInterval: Double = RecordSettings.defaultFlushInterval,
            maximumBytes: Int64 = RecordSettings.defaultMaximumBytes
        ) {
            self.persist = persist
            self.flushInterval = flushInterval
            self.maximumBytes = maximumBytes
        }
    }

    /// `[record]`: whether the record of the light is kept on disk, how often it is written, and
    /// the size at which its file is rotated.
    static let record = ConfigurationTable<RecordSettings>([
        .boolean("persist", get: { $0.persist }, set: { $0.persist = $1 }),
        .number(
            "flush_interval", get: { $0.flushInterval }, set: { $0.flushInterval = $1 },
            refusing: { interval in
                interval.isFinite && interval >= 10 && interval <= 86_400
                    ? nil
                    : "must be 10 to 86400 seconds, not \(ConfigurationFormat.number(interval)):"
                        + " the record is written at most this often"
            }),
        .integer(
            "max_bytes", range: 100_000...2_000_000_000, meaning: "a size in bytes",
            get: { Int($0.maximumBytes) }, set: { $0.maximumBytes = Int64($1) }),
    ])
}
