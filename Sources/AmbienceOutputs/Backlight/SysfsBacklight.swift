import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A `backlight` class device of the kernel (the Raspberry Pi Touch Display's `rpi_backlight`,
/// a laptop's panel, any driver that registers one): `brightness` written as a raw value from 0
/// to `max_brightness`.
///
/// A write to sysfs is one short write(2) that the driver finishes at once, so it is made in
/// `set` itself; it is made only when the raw value changes. A device that goes away (its driver
/// unbound, its display unplugged: ENOENT, ENODEV, ENXIO, EIO) is a fault logged once, retried
/// at most once a second with the latest wish, and logged once more when a write succeeds.
public final class SysfsBacklight: Backlight {
    public static let classDirectory = "/sys/class/backlight"
    /// The group brightnessctl's udev rule (and the package's) gives `brightness` to, and that
    /// Raspberry Pi OS puts its first user in.
    public static let group = "video"
    static let retryInterval = 1.0

    /// The setting: "auto", a device's name under the class directory, or its directory.
    public let device: String
    public private(set) var name: String
    private let classDirectory: String
    private var directory: String
    private var maximum: Int
    /// The raw value last written; nil when unknown (never written, or since a fault).
    private var written: Int?
    /// The latest percent asked for: kept as a percent, since a device found again after a
    /// fault may have another maximum.
    private var wanted: Int?
    private var retryAt: Double?
    private var trouble: FaultReport

    /// Finds the device and reads its `max_brightness`, and checks that `brightness` may be
    /// written, so that a missing device or permission stops the daemon at start with the way
    /// out. `classDirectory` is /sys/class/backlight but in tests.
    public init(
        device: String, classDirectory: String = SysfsBacklight.classDirectory, log: @escaping OutputLog
    ) throws(OutputError) {
        self.device = device
        self.classDirectory = classDirectory
        trouble = FaultReport(log: log)
        directory = try Self.resolve(device, in: classDirectory)
        name = Self.lastComponent(of: directory)
        maximum = try Self.maximumBrightness(in: directory)
        let path = directory + "/brightness"
        do {
            try FileDescriptor.open(path, O_WRONLY | O_NOFOLLOW).close()
        } catch {
            throw Self.failure("open", path, error)
        }
    }

    /// The raw value for `percent` of `maximum`, rounded. Percent 0 is the dimmest lit step (1),
    /// never 0: on many panels raw 0 turns the backlight off, and a kiosk's screen must not go
    /// dark from a curve or a typo.
    public static func raw(percent: Int, maximum: Int) -> Int {
        let clamped = min(max(percent, 0), 100)
        let value = (Double(clamped) * Double(maximum) / 100).rounded()
        return min(max(Int(value), min(1, maximum)), maximum)
    }

    public func set(percent: Int, now: Double) {
        wanted = percent
        guard retryAt == nil else { return }  // failing: the retry sends the latest wish
        write(now: now)
    }

    public func poll(now: Double) -> Double? {
        if let retryAt, now >= retryAt {
            self.retryAt = nil
            reopen(now: now)
        }
        return retryAt
    }

    public func close() {
        // Nothing is held open between writes; the screen keeps its brightness.
        retryAt = nil
    }

    private func write(now: Double) {
        guard let wanted else { return }
        let raw = Self.raw(percent: wanted, maximum: maximum)
        guard raw != written else { return }
        let path = directory + "/brightness"
        do throws(Errno) {
            let file = try FileDescriptor.open(path, O_WRONLY | O_NOFOLLOW)
            defer { file.close() }
            try file.writeAll(String(raw) + "\n")
            written = raw
            trouble.succeeded("backlight \(name): writing brightness again")
        } catch {
            fail(Self.failure("write", path, error).description, now: now)
        }
    }

    /// After a fault the device may be another one (a display plugged in again registers anew,
    /// perhaps under another name when found by "auto", with another maximum): found again,
    /// and the latest wish written whatever was written before.
    private func reopen(now: Double) {
        do throws(OutputError) {
            directory = try Self.resolve(device, in: classDirectory)
            name = Self.lastComponent(of: directory)
            maximum = try Self.maximumBrightness(in: directory)
        } catch {
            fail(error.description, now: now)
            return
        }
        written = nil
        write(now: now)
    }

    private func fail(_ message: String, now: Double) {
        // One message for the whole fault, however its cause reads from one retry to the next
        // (the write failed, then the device was not found, then its maximum was unreadable).
        if !trouble.isFailing {
            trouble.failed("backlight \(device == "auto" ? name : device): \(message); retrying every second")
        }
        written = nil
        retryAt = now + Self.retryInterval
    }

    static func resolve(_ device: String, in classDirectory: String) throws(OutputError) -> String {
        if device.hasPrefix("/") { return device }
        let names: [String]
        do {
            names = try FileSystem.entries(of: classDirectory).sorted()
        } catch .noSuchFileOrDirectory {
            names = []
        } catch {
            throw failure("list", classDirectory, error)
        }
        if device != "auto" {
            guard names.contains(device) else {
                let present = names.isEmpty ? "none is" : names.joined(separator: ", ") + " are"
                throw .configuration(
                    ConfigurationError(
                        key: "device",
                        message: "no backlight '\(device)' in \(classDirectory) (\(present) there)"))
            }
            return classDirectory + "/" + device
        }
        switch names.count {
        case 1:
            return classDirectory + "/" + names[0]
        case 0:
            throw .configuration(
                ConfigurationError(
                    key: "device",
                    message: "\"auto\" found no backlight in \(classDirectory): is the display's driver"
                        + " loaded (ls \(classDirectory))? For an HDMI or DisplayPort monitor use \"ddc:BUS\""
                ))
        default:
            throw .configuration(
                ConfigurationError(
                    key: "device",
                    message: "\"auto\" found several backlights in \(classDirectory): "
                        + names.joined(separator: ", ") + "; set device to one of them"))
        }
    }

    private static func maximumBrightness(in directory: String) throws(OutputError) -> Int {
        let path = directory + "/max_brightness"
        let text: String
        do {
            text = try FileSystem.firstLine(of: path)
        } catch {
            throw failure("read", path, error)
        }
        guard let value = Int(text), value > 0 else {
            throw .invalidContents(path: path, message: "'\(text)' is not a positive maximum brightness")
        }
        return value
    }

    static func lastComponent(of path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    /// Permission problems on a backlight come from a missing udev rule or group membership.
    static func failure(_ operation: String, _ path: String, _ error: Errno) -> OutputError {
        if error == .permissionDenied || error == .notPermitted {
            return .permissionDenied(
                path: path,
                hint: "it is for the \(group) group, which the udev rule (udev/99-ambience.rules) lets"
                    + " write it: add the daemon's user to it (sudo usermod -aG \(group) ambience) and"
                    + " restart the daemon")
        }
        if error == Errno(rawValue: EROFS) {
            return .permissionDenied(
                path: path,
                hint: "/sys is read-only here: a unit with ProtectKernelTunables=yes needs"
                    + " ReadWritePaths=-/sys/devices, as the shipped one has (docs/backlight.md, Permissions)"
            )
        }
        return Files.failure(operation, path, error)
    }
}
