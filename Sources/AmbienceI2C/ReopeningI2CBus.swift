/// A bus that outlives its adapter: any failed transfer lets go of the device node, and the
/// next transfer resolves the selector and opens the bus again.
///
/// An adapter that is unplugged (or whose module is unloaded) takes its /dev/i2c-N with it;
/// the descriptor still open on it only ever fails, and it pins the adapter in the kernel. So a
/// failure closes the bus, which lets the kernel finish removing the adapter, and the chip's
/// driver, which initialises the chip again after any failure, finds it on the bus that comes
/// back under the same name, whatever its number. The driver's retry policy spaces the
/// attempts, so a missing bus costs one open(2) per cooldown.
public final class ReopeningI2CBus: I2CBus {
    public typealias Open = (I2CBusSelector) throws(I2CError) -> any I2CBus

    public let selector: I2CBusSelector
    private let open: Open
    private var bus: (any I2CBus)?
    /// The bus behind the latest successful transfer, for messages while it is closed.
    private var lastName: String?

    /// Opens the bus now, so that a wrong bus at start is reported at once.
    public init(_ selector: I2CBusSelector, open: @escaping Open) throws(I2CError) {
        self.selector = selector
        self.open = open
        let bus = try open(selector)
        self.bus = bus
        lastName = bus.name
    }

    public var name: String { bus?.name ?? lastName ?? selector.description }

    /// True while a device node is held open.
    public var isOpen: Bool { bus != nil }

    public func write(_ bytes: [UInt8], to address: I2CAddress) throws(I2CError) {
        try transfer { bus throws(I2CError) in try bus.write(bytes, to: address) }
    }

    public func read(count: Int, from address: I2CAddress) throws(I2CError) -> [UInt8] {
        try transfer { bus throws(I2CError) in try bus.read(count: count, from: address) }
    }

    public func writeThenRead(_ bytes: [UInt8], readCount: Int, address: I2CAddress) throws(I2CError)
        -> [UInt8]
    {
        try transfer { bus throws(I2CError) in
            try bus.writeThenRead(bytes, readCount: readCount, address: address)
        }
    }

    private func transfer<T>(_ body: (any I2CBus) throws(I2CError) -> T) throws(I2CError) -> T {
        let current: any I2CBus
        if let bus {
            current = bus
        } else {
            current = try open(selector)
            bus = current
            lastName = current.name
        }
        do {
            return try body(current)
        } catch {
            bus = nil
            throw error
        }
    }
}

extension LinuxI2CBus {
    /// The bus a selector names now: its number, or the adapter with that name.
    public static func open(_ selector: I2CBusSelector, force: Bool = false) throws(I2CError) -> LinuxI2CBus {
        try LinuxI2CBus(path: selector.resolve(), force: force)
    }
}
