import AmbienceCore

/// A trace's rows through the engine as the daemon saw them: where a record's `override` column
/// changes, the override (or `auto`) is applied at that row, before its sample. The daemon took
/// the command somewhere between the two samples, so those events come up to one sample interval
/// later than the daemon's; everything else replays to the same events at the same times. A row
/// that starts a daemon's run (a restart, a reboot: `TraceReader.Row.startsRun`) starts a new
/// engine, as the daemon did.
public struct TraceRun: Sendable {
    public let configuration: EngineConfiguration
    /// nil until the first row.
    public private(set) var engine: Engine?
    private var heldOverride: AmbienceState?

    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
    }

    /// The events of one row, in order.
    public mutating func feed(_ row: TraceReader.Row) -> [Event] {
        if row.startsRun {
            engine = nil
            heldOverride = nil
        }
        var engine = self.engine ?? Engine(configuration: configuration, startTime: row.time)
        var events: [Event] = []
        if let recorded = row.recorded, recorded.override != heldOverride {
            heldOverride = recorded.override
            let command: Engine.OverrideCommand = recorded.override.map { .hold($0, duration: nil) } ?? .auto
            events += engine.apply(command, at: row.time)
        }
        events += engine.ingest(Sample(time: row.time, lux: row.lux))
        self.engine = engine
        return events
    }
}
