import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// struct input_event's bytes on this machine: the time (two longs), type, code, value.
public func inputEvent(_ type: UInt16, _ code: UInt16, _ value: Int32) -> [UInt8] {
    let time = [UInt8](repeating: 0, count: 2 * MemoryLayout<Int>.size)
    let value = UInt32(bitPattern: value)
    return time + [UInt8(type & 0xFF), UInt8(type >> 8), UInt8(code & 0xFF), UInt8(code >> 8)]
        + (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xFF) }
}

/// /sys/class/input and /dev/input as a temporary directory: a device's capabilities as files,
/// its node a FIFO the test writes events into.
public struct InputDevices {
    let root = TemporaryDirectory()
    public var classDirectory: String { root.file("class") }
    public var deviceDirectory: String { root.file("dev") }

    public init() throws {
        try FileSystem.makeDirectory(root.file("class"), mode: 0o755)
        try FileSystem.makeDirectory(root.file("dev"), mode: 0o755)
    }

    public func add(_ name: String, properties: String, keys: String, axes: String) throws {
        let device = classDirectory + "/" + name + "/device"
        try FileSystem.makeDirectory(classDirectory + "/" + name, mode: 0o755)
        try FileSystem.makeDirectory(device, mode: 0o755)
        try FileSystem.makeDirectory(device + "/capabilities", mode: 0o755)
        for (file, text) in [
            ("properties", properties), ("capabilities/key", keys), ("capabilities/abs", axes),
        ] {
            let handle = try FileDescriptor.open(device + "/" + file, O_WRONLY | O_CREAT, mode: 0o644)
            try handle.writeAll(text + "\n")
            handle.close()
        }
        guard mkfifo(deviceDirectory + "/" + name, 0o600) == 0 else { throw Errno.current }
    }

    /// A touchscreen as a Raspberry Pi Touch Display's driver registers it: direct, BTN_TOUCH,
    /// ABS_X and ABS_MT_POSITION_X (64-bit words).
    public func addTouchScreen(_ name: String) throws {
        try add(name, properties: "2", keys: "400 0 0 0 0 0", axes: "260800000000003")
    }

    /// Opens the device node for writing (the reader is open by then).
    public func writer(_ name: String) throws -> FileDescriptor {
        try FileDescriptor.open(deviceDirectory + "/" + name, O_WRONLY | O_NONBLOCK)
    }
}
