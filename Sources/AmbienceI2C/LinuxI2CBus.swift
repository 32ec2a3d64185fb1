import AmbienceSystem
import CI2C

#if canImport(Glibc)
    import Glibc
#endif

/// A real bus: `/dev/i2c-N` through i2c-dev. Open it, hand it to drivers, close it.
///
/// Adapters differ: most SoC controllers speak plain I2C, some (and the kernel's i2c-stub) only
/// SMBus. `I2C_FUNCS` decides per transfer: plain I2C (read/write, I2C_RDWR for a repeated
/// start) where the adapter has it, else the SMBus transaction that puts the same bytes on the
/// wire (libi2c's i2c_smbus_*). Every transfer first selects the address with I2C_SLAVE (cached),
/// so an address bound to a kernel driver is reported as busy even for I2C_RDWR, which the
/// kernel would otherwise let through.
public final class LinuxI2CBus: I2CBus {
    public let number: Int
    public let path: String
    public var name: String { path }
    /// Use I2C_SLAVE_FORCE: talk to the chip even though a kernel driver has it.
    public let forcesAddress: Bool
    public let functionality: Functionality
    private var descriptor: FileDescriptor?
    private var selectedAddress: I2CAddress?

    public struct Functionality: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let plainI2C = Functionality(rawValue: UInt(I2C_FUNC_I2C))
        public static let receiveByte = Functionality(rawValue: UInt(I2C_FUNC_SMBUS_READ_BYTE))
        public static let sendByte = Functionality(rawValue: UInt(I2C_FUNC_SMBUS_WRITE_BYTE))
        public static let readByteData = Functionality(rawValue: UInt(I2C_FUNC_SMBUS_READ_BYTE_DATA))
        public static let writeByteData = Functionality(rawValue: UInt(I2C_FUNC_SMBUS_WRITE_BYTE_DATA))
        public static let readWordData = Functionality(rawValue: UInt(I2C_FUNC_SMBUS_READ_WORD_DATA))
        public static let writeWordData = Functionality(rawValue: UInt(I2C_FUNC_SMBUS_WRITE_WORD_DATA))
        public static let readI2CBlock = Functionality(rawValue: UInt(I2C_FUNC_SMBUS_READ_I2C_BLOCK))
        public static let writeI2CBlock = Functionality(rawValue: UInt(I2C_FUNC_SMBUS_WRITE_I2C_BLOCK))
    }

    public static func path(ofBus number: Int) -> String { "/dev/i2c-\(number)" }

    /// The bus numbers that have a device node, in order.
    public static func availableBusNumbers() -> [Int] {
        let names = (try? FileSystem.entries(of: "/dev")) ?? []
        return names.compactMap { name in name.hasPrefix("i2c-") ? Int(name.dropFirst(4)) : nil }.sorted()
    }

    public convenience init(number: Int, force: Bool = false) throws(I2CError) {
        try self.init(path: Self.path(ofBus: number), force: force)
    }

    /// A bus by device path; the number (for sysfs) is what follows "i2c-" in it, if anything.
    public init(path: String, force: Bool = false) throws(I2CError) {
        self.path = path
        number = path.split(separator: "-").last.flatMap { Int($0) } ?? -1
        forcesAddress = force
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, O_RDWR)
        } catch {
            let kind: I2CError.Kind
            switch error.rawValue {
            case ENOENT, ENODEV, ENXIO: kind = .busMissing
            case EACCES, EPERM: kind = .permissionDenied
            default: kind = .other
            }
            throw I2CError(kind, bus: path, errno: error)
        }
        var mask: UInt = 0
        do {
            _ = try retryOnInterrupt { ioctl(descriptor.rawValue, UInt(I2C_FUNCS), &mask) }
        } catch {
            descriptor.close()
            throw I2CError(.unsupported("not an i2c-dev device (I2C_FUNCS failed)"), bus: path, errno: error)
        }
        functionality = Functionality(rawValue: mask)
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Releases the device node; later transfers report the bus missing.
    public func close() {
        descriptor?.close()
        descriptor = nil
        selectedAddress = nil
    }

    /// The kernel driver bound to an address on this bus, from sysfs (nil if none or unknown).
    public func boundDriver(at address: I2CAddress) -> String? {
        let link = "/sys/bus/i2c/devices/\(sysfsName(address))/driver"
        guard let target = try? FileSystem.linkTarget(of: link) else { return nil }
        return target.split(separator: "/").last.map(String.init)
    }

    private func sysfsName(_ address: I2CAddress) -> String {
        "\(number)-" + hexadecimal(address.rawValue, digits: 4).lowercased()
    }

    // MARK: Transfers

    public func write(_ bytes: [UInt8], to address: I2CAddress) throws(I2CError) {
        let fd = try select(address)
        if functionality.contains(.plainI2C) || bytes.isEmpty {
            let written = try transfer(address) { () throws(Errno) in
                try retryOnInterrupt { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            }
            guard written == bytes.count else { throw I2CError(.ioError, bus: path, address: address) }
            return
        }
        switch bytes.count {
        case 1 where functionality.contains(.sendByte):
            _ = try smbus(address) { i2c_smbus_write_byte(fd, bytes[0]) }
        case 2 where functionality.contains(.writeByteData):
            _ = try smbus(address) { i2c_smbus_write_byte_data(fd, bytes[0], bytes[1]) }
        case 3 where functionality.contains(.writeWordData):
            _ = try smbus(address) {
                i2c_smbus_write_word_data(fd, bytes[0], UInt16(bytes[1]) | UInt16(bytes[2]) << 8)
            }
        case 2...33 where functionality.contains(.writeI2CBlock):
            let data = Array(bytes.dropFirst())
            _ = try smbus(address) { i2c_smbus_write_i2c_block_data(fd, bytes[0], UInt8(data.count), data) }
        default:
            throw unsupported("a \(bytes.count)-byte write", address)
        }
    }

    public func read(count: Int, from address: I2CAddress) throws(I2CError) -> [UInt8] {
        let fd = try select(address)
        if functionality.contains(.plainI2C) {
            var bytes = [UInt8](repeating: 0, count: count)
            let received = try transfer(address) { () throws(Errno) in
                try retryOnInterrupt {
                    bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                }
            }
            guard received == count else { throw I2CError(.ioError, bus: path, address: address) }
            return bytes
        }
        if count == 1 && functionality.contains(.receiveByte) {
            return [UInt8(truncatingIfNeeded: try smbus(address) { i2c_smbus_read_byte(fd) })]
        }
        throw unsupported("a plain \(count)-byte read (the adapter speaks SMBus only)", address)
    }

    public func writeThenRead(_ bytes: [UInt8], readCount: Int, address: I2CAddress) throws(I2CError)
        -> [UInt8]
    {
        let fd = try select(address)
        if functionality.contains(.plainI2C) {
            return try combinedTransfer(fd, bytes, readCount: readCount, address: address)
        }
        guard bytes.count == 1 else {
            throw unsupported("a \(bytes.count)-byte write before a read", address)
        }
        let command = bytes[0]
        switch readCount {
        case 1 where functionality.contains(.readByteData):
            return [UInt8(truncatingIfNeeded: try smbus(address) { i2c_smbus_read_byte_data(fd, command) })]
        case 2 where functionality.contains(.readWordData):
            let word = try smbus(address) { i2c_smbus_read_word_data(fd, command) }
            return [UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8)]
        case 1...32 where functionality.contains(.readI2CBlock):
            var data = [UInt8](repeating: 0, count: readCount)
            let received = try smbus(address) {
                i2c_smbus_read_i2c_block_data(fd, command, UInt8(readCount), &data)
            }
            guard received == readCount else { throw I2CError(.ioError, bus: path, address: address) }
            return data
        default:
            throw unsupported("a \(readCount)-byte register read", address)
        }
    }

    // MARK: Plumbing

    private func select(_ address: I2CAddress) throws(I2CError) -> Int32 {
        guard let descriptor else { throw I2CError(.busMissing, bus: path, address: address) }
        if selectedAddress == address { return descriptor.rawValue }
        let request = forcesAddress ? I2C_SLAVE_FORCE : I2C_SLAVE
        do {
            _ = try retryOnInterrupt { ioctl(descriptor.rawValue, UInt(request), Int32(address.rawValue)) }
        } catch {
            if error == .resourceBusy {
                let kind = I2CError.Kind.addressBusy(
                    driver: boundDriver(at: address), device: sysfsName(address))
                throw I2CError(kind, bus: path, address: address, errno: error)
            }
            throw I2CError(transferErrno: error, bus: path, address: address)
        }
        selectedAddress = address
        return descriptor.rawValue
    }

    private func combinedTransfer(
        _ fd: Int32, _ bytes: [UInt8], readCount: Int, address: I2CAddress
    ) throws(I2CError) -> [UInt8] {
        var output = bytes
        var input = [UInt8](repeating: 0, count: readCount)
        _ = try transfer(address) { () throws(Errno) in
            try retryOnInterrupt {
                output.withUnsafeMutableBufferPointer { outBuffer in
                    input.withUnsafeMutableBufferPointer { inBuffer in
                        var messages = [
                            i2c_msg(
                                addr: UInt16(address.rawValue), flags: 0, len: UInt16(outBuffer.count),
                                buf: outBuffer.baseAddress),
                            i2c_msg(
                                addr: UInt16(address.rawValue), flags: UInt16(I2C_M_RD),
                                len: UInt16(inBuffer.count), buf: inBuffer.baseAddress),
                        ]
                        return messages.withUnsafeMutableBufferPointer { list in
                            var request = i2c_rdwr_ioctl_data(
                                msgs: list.baseAddress, nmsgs: UInt32(list.count))
                            return ioctl(fd, UInt(I2C_RDWR), &request)
                        }
                    }
                }
            }
        }
        return input
    }

    /// Runs a read/write/ioctl, turning its errno into an I2CError for this address.
    private func transfer<T>(_ address: I2CAddress, _ body: () throws(Errno) -> T) throws(I2CError) -> T {
        do {
            return try body()
        } catch {
            throw I2CError(transferErrno: error, bus: path, address: address)
        }
    }

    /// libi2c returns -errno on failure (and sets errno); EINTR is retried like any syscall.
    private func smbus(_ address: I2CAddress, _ call: () -> Int32) throws(I2CError) -> Int32 {
        while true {
            let result = call()
            if result >= 0 { return result }
            let error = Errno(rawValue: -result)
            if error == .interrupted { continue }
            throw I2CError(transferErrno: error, bus: path, address: address)
        }
    }

    private func unsupported(_ what: String, _ address: I2CAddress) -> I2CError {
        I2CError(.unsupported(what), bus: path, address: address)
    }
}
