import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A light sensor a kernel driver already has (bh1750, tsl2563, veml6030, opt3001, …), read
/// through the Industrial I/O subsystem's sysfs attributes.
///
/// A Pi owner with `dtoverlay=i2c-sensor,bh1750` finds the address busy for i2c-dev; IIO is how
/// the kernel offers that chip instead, and it covers every light sensor the kernel drives.
///
/// The device is found by its `name` (the driver's, or the I2C device's) or by its directory,
/// again after every failure, so a driver unbound and bound again (under another
/// `iio:deviceN`) is picked up without a restart. Reads run on a thread of their own: some
/// drivers sleep in read(2) through a whole conversion (the bh1750 for up to 180 ms), and the
/// daemon's loop must not.
public final class IIOLightSensor: LightSensor {
    public static let devicesDirectory = "/sys/bus/iio/devices"

    /// Which device: its `name` attribute, or its directory (a path with a "/").
    public let device: String
    public let directory: String
    private let clock: any Clock
    private let execution: BackgroundJob<Result<Reading, IIOError>>.Execution
    private var recovery: Recovery
    private var needsInitialisation = true
    private var channel: IIOChannel?
    private var job: BackgroundJob<Result<Reading, IIOError>>?
    private var startedAt = 0.0
    /// How long the latest read took: the next one is looked for then.
    private var expectedDuration = 0.0

    public init(
        device: String, directory: String = IIOLightSensor.devicesDirectory, clock: any Clock,
        retryPolicy: RetryPolicy = RetryPolicy(),
        execution: BackgroundJob<Result<Reading, IIOError>>.Execution = .thread
    ) {
        self.device = device
        self.directory = directory
        self.clock = clock
        self.execution = execution
        recovery = Recovery(policy: retryPolicy)
    }

    public var description: String {
        "IIO light sensor " + (device.contains("/") ? device : "'\(device)'")
    }

    public func measure() throws(SensorError) -> SensorProgress {
        try recovery.measure(
            clock: clock, needsInitialisation: &needsInitialisation,
            initialise: { () throws(SensorError) in try find() },
            collect: { () throws(SensorError) in try collect() })
    }

    private func find() throws(SensorError) {
        job = nil
        do {
            let found = try IIOChannel.find(device, in: directory)
            channel = found
            let execution = execution
            job = BackgroundJob(execution) { found.read() }
        } catch {
            throw SensorError(.device(error.description), sensor: description)
        }
    }

    private func collect() throws(SensorError) -> SensorProgress {
        guard let job, channel != nil else { throw SensorError(.device("no device"), sensor: description) }
        if let output = job.result() {
            expectedDuration = clock.now - startedAt
            switch output {
            case .success(let reading):
                return .reading(reading)
            case .failure(let error):
                throw SensorError(.device(error.description), sensor: description)
            }
        }
        let now = clock.now
        if !job.isBusy {
            startedAt = now
            job.start()
            if execution == .inline { return try collect() }
        }
        // Looked for when the last read took, then every 5 ms: a read that wakes the loop
        // itself would need the daemon to poll the thread, for a few wake-ups saved.
        return .pending(until: max(startedAt + expectedDuration, now + 0.005))
    }
}

/// Why an IIO device could not be read.
public struct IIOError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The illuminance attributes of one IIO device: `in_illuminance[0]_input` in lux, or
/// `…_raw` with the `…_scale` and `…_offset` the IIO ABI gives: lux = (raw + offset) × scale;
/// or, for a colour sensor without them, its colour channels (`IIOColourChannels`).
public struct IIOChannel: Equatable, Sendable {
    public var deviceDirectory: String
    public var name: String
    /// The processed value in lux, when the driver gives one.
    public var input: String?
    public var raw: String?
    public var scale: String?
    public var offset: String?
    public var colour: IIOColourChannels?

    /// "in_illuminance_raw × scale", for readings' descriptions.
    public var summary: String {
        let device = deviceDirectory.split(separator: "/").last.map(String.init) ?? deviceDirectory
        if let input { return "\(device) \(Self.attribute(input))" }
        if colour != nil { return "\(device) in_intensity_{clear,red,green,blue}_raw" }
        return "\(device) "
            + ([raw, scale, offset].compactMap { $0.map(Self.attribute) }.joined(separator: ", "))
    }

    private static func attribute(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Every IIO device with an illuminance channel, in index order.
    public static func all(in directory: String = IIOLightSensor.devicesDirectory) -> [IIOChannel] {
        let entries = (try? FileSystem.entries(of: directory)) ?? []
        let devices = entries.filter { $0.hasPrefix("iio:device") }.sorted {
            (Int($0.dropFirst(10)) ?? 0) < (Int($1.dropFirst(10)) ?? 0)
        }
        return devices.compactMap { channel(at: directory + "/" + $0) }
    }

    /// The device named so (or at this path), with its illuminance attributes.
    public static func find(_ device: String, in directory: String = IIOLightSensor.devicesDirectory)
        throws(IIOError) -> IIOChannel
    {
        if device.contains("/") {
            guard FileSystem.exists(device) else { throw IIOError("\(device) does not exist") }
            guard let channel = channel(at: device) else {
                throw IIOError(
                    "\(device) has no in_illuminance_input or in_illuminance_raw, nor a known colour sensor's channels"
                )
            }
            return channel
        }
        let channels = all(in: directory)
        guard let channel = channels.first(where: { $0.name == device }) else {
            let present = channels.map { "'\($0.name)'" }.joined(separator: ", ")
            throw IIOError(
                "no IIO light sensor named '\(device)' in \(directory) (there are: "
                    + (present.isEmpty ? "none" : present)
                    + "); is its kernel driver bound? 'ambience probe' lists them")
        }
        return channel
    }

    static func channel(at deviceDirectory: String) -> IIOChannel? {
        let name = (try? FileSystem.firstLine(of: deviceDirectory + "/name")) ?? ""
        for prefix in ["in_illuminance", "in_illuminance0"] {
            func attribute(_ suffix: String) -> String? {
                let path = deviceDirectory + "/" + prefix + suffix
                return FileSystem.exists(path) ? path : nil
            }
            if let input = attribute("_input") {
                return IIOChannel(deviceDirectory: deviceDirectory, name: name, input: input)
            }
            if let raw = attribute("_raw") {
                return IIOChannel(
                    deviceDirectory: deviceDirectory, name: name, raw: raw,
                    scale: attribute("_scale") ?? deviceDirectory + "/in_illuminance_scale",
                    offset: attribute("_offset"))
            }
        }
        return IIOColourChannels.at(deviceDirectory, name: name).map {
            IIOChannel(deviceDirectory: deviceDirectory, name: name, colour: $0)
        }
    }

    /// Reads the light now; blocks for as long as the driver's read does.
    public func read() -> Result<Reading, IIOError> {
        do throws(IIOError) {
            if let colour { return .success(try colour.read()) }
            return .success(Reading(lux: try lux(), settings: "kernel driver, \(summary)"))
        } catch {
            return .failure(error)
        }
    }

    private func lux() throws(IIOError) -> Double {
        if let input { return try Self.number(input) }
        guard let raw else { throw IIOError("no illuminance attribute") }
        let value = try Self.number(raw)
        let scale = try scale.flatMap { path throws(IIOError) in
            FileSystem.exists(path) ? try Self.number(path) : nil
        }
        let offset = try offset.map { path throws(IIOError) in try Self.number(path) } ?? 0
        return (value + offset) * (scale ?? 1)
    }

    /// One number from a sysfs attribute ("42", "0.833333333").
    static func number(_ path: String) throws(IIOError) -> Double {
        let text: String
        do {
            text = try FileSystem.firstLine(of: path)
        } catch {
            throw IIOError("cannot read \(path): \(error)")
        }
        guard let value = Double(text), value.isFinite else {
            throw IIOError("\(path) reads '\(text)', not a number")
        }
        return value
    }
}
