import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A failed I2C operation: what went wrong, on which bus and address, the errno behind it, and
/// what the user can do about it.
public struct I2CError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// No such bus: the device node is missing (I2C not enabled, i2c-dev not loaded).
        case busMissing
        /// The device node exists but this user may not open it.
        case permissionDenied
        /// A kernel driver has claimed the address. `device` is its sysfs name ("1-0039").
        case addressBusy(driver: String?, device: String)
        /// Nobody acknowledged: no chip at the address, unplugged, or it refused (ENXIO, EREMOTEIO).
        case notAcknowledged
        /// The transfer broke off (EIO): noise, a loose wire, a chip resetting.
        case ioError
        /// The adapter gave up waiting (ETIMEDOUT): a chip holding the clock low, a stuck bus.
        case timedOut
        /// The adapter cannot do this kind of transfer (for example an SMBus-only adapter asked
        /// for a plain multi-byte read).
        case unsupported(String)
        /// Anything else; see `errno`.
        case other
    }

    public var kind: Kind
    public var bus: String
    public var address: I2CAddress?
    public var errno: Errno?

    public init(_ kind: Kind, bus: String, address: I2CAddress? = nil, errno: Errno? = nil) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.errno = errno
    }

    /// The kind a transfer's errno stands for (not `open` or address selection, which say more).
    /// A transfer runs on a bus that is open, so ENODEV there is about the address, not the bus:
    /// SMBus-level adapters (the kernel's i2c-stub among them) report an address where no chip
    /// sits that way, where plain-I2C controllers say ENXIO or EREMOTEIO.
    public init(transferErrno errno: Errno, bus: String, address: I2CAddress?) {
        let kind: Kind
        switch errno {
        case .noSuchAddressOrDevice, .remoteIO, .operationNotSupportedByDevice: kind = .notAcknowledged
        case .ioError: kind = .ioError
        case .timedOut: kind = .timedOut
        case .noSuchFileOrDirectory: kind = .busMissing
        case .permissionDenied, .notPermitted: kind = .permissionDenied
        case .notSupported: kind = .unsupported("the adapter refused the transfer")
        default: kind = .other
        }
        self.init(kind, bus: bus, address: address, errno: errno)
    }

    /// True for faults a later attempt may not meet again; permission or a missing bus stay.
    public var isTransient: Bool {
        switch kind {
        case .notAcknowledged, .ioError, .timedOut, .other, .addressBusy: true
        case .busMissing, .permissionDenied, .unsupported: false
        }
    }

    /// What to do about it, when there is something to do.
    public var hint: String? {
        switch kind {
        case .busMissing:
            return "is I2C enabled on this board? (Raspberry Pi: dtparam=i2c_arm=on in config.txt, "
                + "or raspi-config > Interface Options > I2C; then 'modprobe i2c-dev')"
        case .permissionDenied:
            return "add the user to the i2c group (the rules in udev/ give that group /dev/i2c-*), "
                + "then log in again"
        case .addressBusy(let driver, let device):
            let owner = driver.map { "kernel driver '\($0)'" } ?? "a kernel driver"
            let unbind =
                driver.map { "echo \(device) > /sys/bus/i2c/drivers/\($0)/unbind" }
                ?? "echo \(device) > /sys/bus/i2c/devices/\(device)/driver/unbind"
            return "\(owner) is bound to \(device); read the sensor through that driver with kind = \"iio\" "
                + "('ambience probe' shows the device name to give), or unbind it (\(unbind), or remove its "
                + "dtoverlay), or set force = true for this sensor to share the chip with it (I2C_SLAVE_FORCE)"
        case .notAcknowledged:
            return "check the wiring, the address (i2cdetect -y BUS) and the sensor's power"
        case .ioError, .timedOut, .unsupported, .other:
            return nil
        }
    }

    public var description: String {
        var text = bus
        if let address { text += " address \(address)" }
        return text + ": " + explanation
    }

    /// What went wrong and what to do, without the bus and address (for lines that name them).
    public var explanation: String {
        var text = summary
        if let errno { text += " (\(errno))" }
        if let hint { text += "; " + hint }
        return text
    }

    private var summary: String {
        switch kind {
        case .busMissing: "no such I2C bus"
        case .permissionDenied: "permission denied"
        case .addressBusy: "address claimed by a kernel driver"
        case .notAcknowledged: "no acknowledge (no chip answering at this address)"
        case .ioError: "I/O error during the transfer"
        case .timedOut: "the transfer timed out"
        case .unsupported(let what): "unsupported by the adapter: \(what)"
        case .other: "transfer failed"
        }
    }
}
