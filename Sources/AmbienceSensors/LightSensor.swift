import AmbienceCore

/// A light sensor driver, whichever the chip: the daemon reads lux through this alone.
///
/// Drivers do not touch the bus until the first `read()` (or `initialise()`), so a daemon can
/// start with the sensor unplugged and report faults until it appears.
public protocol LightSensor: AnyObject {
    /// "TSL2561 at /dev/i2c-1 0x39", for logs.
    var description: String { get }

    /// Initialises the chip if needed, waits out the conversion time, and measures.
    func read() throws(SensorError) -> Reading
}

/// Why a sensor gave no reading.
public struct SensorError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The bus failed, after the retries of the driver's `RetryPolicy`.
        case bus(I2CError)
        /// Something answers at the address, but it is not the chip configured.
        case unexpectedChip(String)
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
        case .unexpectedChip(let what): cause = what
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
