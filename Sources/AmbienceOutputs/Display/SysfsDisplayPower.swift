import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A `backlight` class device's `bl_power` (0 on, 4 off: the kernel's FB_BLANK_UNBLANK and
/// FB_BLANK_POWERDOWN), which the Raspberry Pi Touch Displays' drivers and most panels honour by
/// switching the backlight off while the brightness stays as it was.
///
/// The write is made in `set` when the wish differs from what the device last read; the value is
/// read back after every write and every `checkInterval` besides, so a display that something
/// else turned on or off (another program, a driver's reset) is seen as it is. A device that goes
/// away is a fault logged once, retried every second with the latest wish, and logged once more
/// when it answers again.
public final class SysfsDisplayPower: DisplaySwitch {
    static let retryInterval = 1.0
    /// How often the power is read back while nothing is asked: the state the daemon reports
    /// stays true within this.
    public static let checkInterval = 5.0

    /// FB_BLANK_UNBLANK and FB_BLANK_POWERDOWN, as `bl_power` takes them.
    static let onValue = 0
    static let offValue = 4

    /// The setting: "auto", a device's name under the class directory, or its directory.
    public let device: String
    public private(set) var name: String
    public var power: DisplayPower? { readback.power }
    private var readback = PowerReadback()
    private let classDirectory: String
    private var directory: String
    private var wanted: DisplayPower?
    private var retryAt: Double?
    private var checkAt = -Double.infinity
    private var trouble: FaultReport

    /// Finds the device and checks that `bl_power` may be written, so that a missing device or
    /// permission stops the daemon at start with the way out. `classDirectory` is
    /// /sys/class/backlight but in tests.
    public init(
        device: String, classDirectory: String = SysfsBacklight.classDirectory, log: @escaping OutputLog
    ) throws(OutputError) {
        self.device = device
        self.classDirectory = classDirectory
        trouble = FaultReport(log: log)
        directory = try SysfsBacklight.resolve(device, in: classDirectory)
        name = SysfsBacklight.lastComponent(of: directory)
        let path = directory + "/bl_power"
        do {
            try FileDescriptor.open(path, O_WRONLY | O_NOFOLLOW).close()
        } catch {
            throw SysfsBacklight.failure("open", path, error)
        }
    }

    public func set(power wish: DisplayPower, now: Double) {
        wanted = wish
        guard wish != power else { return }
        readback.wished()
        guard retryAt == nil else { return }
        write(now: now)
    }

    public func poll(now: Double) -> Double? {
        if let due = retryAt {
            guard now >= due else { return due }
            retryAt = nil
            reopen(now: now)
        } else if now >= checkAt {
            read(now: now)
        }
        return retryAt ?? checkAt
    }

    /// Reads `bl_power` at the next `poll` (at start).
    @discardableResult public func askPower(now: Double) -> Bool {
        checkAt = min(checkAt, now)
        return true
    }

    public func close() {
        // Nothing is held open between writes; the display stays as it is.
        retryAt = nil
    }

    private func write(now: Double) {
        guard let wanted else { return }
        let path = directory + "/bl_power"
        do throws(Errno) {
            let file = try FileDescriptor.open(path, O_WRONLY | O_NOFOLLOW)
            defer { file.close() }
            try file.writeAll(String(wanted == .on ? Self.onValue : Self.offValue) + "\n")
        } catch {
            fail(SysfsBacklight.failure("write", path, error).description, now: now)
            return
        }
        readback.written()
        read(now: now)
    }

    /// Reads `bl_power` back: 0 is on, anything else (1 to 4, the kernel's degrees of blanking)
    /// shows nothing.
    private func read(now: Double) {
        let path = directory + "/bl_power"
        let asked = readback.asking()
        let text: String
        do {
            text = try FileSystem.firstLine(of: path)
        } catch {
            fail(SysfsBacklight.failure("read", path, error).description, now: now)
            return
        }
        guard let value = Int(text) else {
            fail("\(path): '\(text)' is not a power state", now: now)
            return
        }
        readback.answered(value == Self.onValue ? .on : .off, to: asked)
        checkAt = now + Self.checkInterval
        trouble.succeeded("display \(name): answering again")
    }

    /// After a fault the device may be another one (a display plugged in again registers anew):
    /// found again, and the latest wish written.
    private func reopen(now: Double) {
        do throws(OutputError) {
            directory = try SysfsBacklight.resolve(device, in: classDirectory)
            name = SysfsBacklight.lastComponent(of: directory)
        } catch {
            fail(error.description, now: now)
            return
        }
        if wanted != nil { write(now: now) } else { read(now: now) }
    }

    private func fail(_ message: String, now: Double) {
        if !trouble.isFailing {
            trouble.failed("display \(device == "auto" ? name : device): \(message); retrying every second")
        }
        readback.forget()
        retryAt = now + Self.retryInterval
    }
}
