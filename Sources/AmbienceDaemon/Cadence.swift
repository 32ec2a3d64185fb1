import AmbienceRecord

/// When the daemon acts next: the samples' slots, a measurement under way, the sinks' poll, and
/// where a simulation ends.
struct Cadence {
    /// The samples' slots. It moves on only once a sample is in, so while a measurement is
    /// under way (a conversion, a retry) its `due` is the slot the measurement began in.
    var schedule: SampleSchedule
    /// When a measurement under way is taken up again.
    var measurementDue: Double?
    var nextPoll: Double
    /// The loop's next deadline for the daemon.
    var nextWake: Double
    /// Where a simulation ends; nil for a daemon that runs until it is stopped.
    var end: Double?

    init(interval: Double, start: Double, end: Double? = nil) {
        schedule = SampleSchedule(interval: interval, start: start)
        nextPoll = start
        nextWake = start
        self.end = end
    }
}
