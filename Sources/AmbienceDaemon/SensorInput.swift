import AmbienceCore
import AmbienceSensors
import AmbienceSystem

/// The light sensor as the daemon's input: its measurement moved on from the loop, and its
/// trouble logged once however often the retries fail, and once when it reads again.
struct SensorInput {
    /// Where a measurement stands after a step.
    enum Step {
        /// A conversion or a retry: come back at this monotonic time.
        case pending(Double)
        /// The sample is in: the reading, or nil for a read that failed.
        case done(Reading?)
    }

    private var trouble: FaultReport

    init(logger: Logger) {
        trouble = FaultReport(
            log: { [logger] in logger.log(.error, $0) }, recovery: { [logger] in logger.log(.notice, $0) })
    }

    mutating func measure(_ sensor: any LightSensor) -> Step {
        do {
            switch try sensor.measure() {
            case .pending(let deadline): return .pending(deadline)
            case .reading(let reading):
                trouble.succeeded("\(sensor.description): reading again")
                return .done(reading)
            }
        } catch {
            // The same trouble is logged once: when it next retries is no news.
            var quiet = error
            quiet.retryAt = nil
            trouble.failed(quiet.description)
            return .done(nil)
        }
    }
}
