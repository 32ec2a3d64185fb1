import AmbienceCore

/// When the daemon acts next: the samples' slots, a measurement under way, the sinks' poll.
struct Cadence {
    /// The samples' slots. It moves on only once a sample is in, so while a measurement is
    /// under way (a conversion, a retry) its `due` is the slot the measurement began in.
    var schedule: SampleSchedule
    /// When a measurement under way is taken up again.
    var measurementDue: Double?
    var nextPoll: Double
    /// The loop's next deadline for the daemon.
    var nextWake: Double

    init(interval: Double, start: Double) {
        schedule = SampleSchedule(interval: interval, start: start)
        nextPoll = start
        nextWake = start
    }
}
