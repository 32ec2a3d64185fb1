import AmbienceI2C
import AmbienceSystem

/// How a driver rides out bus trouble: a few quick retries inside one read for glitches, then,
/// while the chip stays away, attempts spaced out by a cooldown that doubles up to a ceiling,
/// so a missing sensor costs the bus one transfer per cooldown rather than one per sample.
public struct RetryPolicy: Sendable {
    /// Attempts within one measurement, the first included.
    public var attemptsPerRead: Int
    /// Wait before the second attempt in a read; doubles for each further one.
    public var firstRetryDelay: Double
    /// No bus traffic for this long after a failed read; doubles per consecutive failed read.
    public var initialCooldown: Double
    public var maximumCooldown: Double

    public init(
        attemptsPerRead: Int = 3, firstRetryDelay: Double = 0.005, initialCooldown: Double = 0.25,
        maximumCooldown: Double = 8
    ) {
        self.attemptsPerRead = max(1, attemptsPerRead)
        self.firstRetryDelay = firstRetryDelay
        self.initialCooldown = initialCooldown
        self.maximumCooldown = maximumCooldown
    }
}

/// The retry bookkeeping both drivers share: when the bus may be tried again and whether the
/// chip must be initialised again (any failure may mean it was unplugged and lost its settings).
/// A glitch's quick retry is a pending step like a conversion, never a sleep.
struct Recovery {
    let policy: RetryPolicy
    private(set) var consecutiveFailedReads = 0
    private(set) var retryAt: Double?
    private var lastError: SensorError?
    /// Attempts made by the measurement under way, the first included.
    private var attemptNumber = 1
    private var retryDelay: Double

    init(policy: RetryPolicy) {
        self.policy = policy
        retryDelay = policy.firstRetryDelay
    }

    /// Runs one step of a measurement with the policy's retries: `initialise` first when the chip
    /// needs it (on the first call, and after every failure), then `collect`.
    mutating func measure(
        clock: any Clock, needsInitialisation: inout Bool, initialise: () throws(SensorError) -> Void,
        collect: () throws(SensorError) -> SensorProgress
    ) throws(SensorError) -> SensorProgress {
        if let retryAt, clock.now < retryAt, var error = lastError {
            error.retryAt = retryAt
            throw error
        }
        do {
            if needsInitialisation {
                try initialise()
                needsInitialisation = false
            }
            let progress = try collect()
            if case .reading = progress {
                consecutiveFailedReads = 0
                attemptNumber = 1
                retryDelay = policy.firstRetryDelay
            }
            retryAt = nil
            lastError = nil
            return progress
        } catch {
            needsInitialisation = true
            let worthRetrying: Bool
            if case .bus(let busError) = error.kind {
                worthRetrying = busError.isTransient
            } else {
                worthRetrying = false
            }
            if worthRetrying && attemptNumber < policy.attemptsPerRead {
                attemptNumber += 1
                defer { retryDelay *= 2 }
                return .pending(until: clock.now + retryDelay)
            }
            attemptNumber = 1
            retryDelay = policy.firstRetryDelay
            consecutiveFailedReads += 1
            let doublings = min(consecutiveFailedReads - 1, 30)
            let cooldown = min(policy.maximumCooldown, policy.initialCooldown * Double(1 << doublings))
            retryAt = clock.now + cooldown
            lastError = error
            throw error
        }
    }
}
