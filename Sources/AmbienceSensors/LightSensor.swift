import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// A light sensor driver, whichever the chip: the daemon reads lux through this alone.
///
/// Drivers do not touch the bus until the first `measure()` (or `initialise()`), so a daemon can
/// start with the sensor unplugged and report faults until it appears.
///
/// A driver never waits: a conversion under way (after initialisation, a range change, or a
/// glitch to retry) is returned as the time to come back, so that the daemon's one `poll` stays
/// the only place it waits, and a signal or an override is handled during a conversion.
public protocol LightSensor: AnyObject {
    /// "TSL2561 at /dev/i2c-1 0x39", for logs.
    var description: String { get }

    /// Moves the measurement on as far as it can go now: initialises the chip if needed, and
    /// gives the reading, or the monotonic time when the chip will have one.
    func measure() throws(SensorError) -> SensorProgress
}

/// Where a measurement stands.
public enum SensorProgress: Equatable, Sendable {
    case reading(Reading)
    /// A conversion or a retry is under way: call `measure()` again at this monotonic time.
    case pending(until: Double)
}

extension LightSensor {
    /// Measures, sleeping on `clock` through conversions: for one-shot commands such as `probe`,
    /// which have nothing else to attend to. The daemon calls `measure()` from its loop instead.
    public func read(waitingOn clock: any Clock) throws(SensorError) -> Reading {
        while true {
            switch try measure() {
            case .reading(let reading): return reading
            case .pending(let deadline): clock.sleep(until: deadline)
            }
        }
    }
}

/// Why a sensor gave no reading.
public struct SensorError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The bus failed, after the retries of the driver's `RetryPolicy`.
        case bus(I2CError)
        /// Something answers at the address, but it is not the chip configured.
        case unexpectedChip(String)
        /// A kernel device (IIO) is missing or cannot be read.
        case device(String)
    }

    public var kind: Kind
    /// Which sensor: "TSL2561 at /dev/i2c-1 0x39".
    public var sensor: String
    /// Set while the driver backs off after repeated failures: it will not touch the bus again
    /// before this monotonic time, and `kind` is the last failure it saw.
    public var retryAt: Double?

    public init(_ kind: Kind, sensor: String, retryAt: Double? = nil) {
        self.kind = kind
        self.sensor = sensor
        self.retryAt = retryAt
    }

    public var description: String {
        let cause: String
        switch kind {
        case .bus(let error): cause = error.description
        case .unexpectedChip(let what), .device(let what): cause = what
        }
        return "\(sensor): \(cause)" + (retryAt == nil ? "" : " (backing off before the next attempt)")
    }
}

/// Runs bus transfers for a driver, naming the sensor in whatever fails.
func onBus<T>(_ sensor: String, _ transfer: () throws(I2CError) -> T) throws(SensorError) -> T {
    do {
        return try transfer()
    } catch {
        throw SensorError(.bus(error), sensor: sensor)
    }
}
