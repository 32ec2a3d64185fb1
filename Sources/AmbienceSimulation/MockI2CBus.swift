import AmbienceI2C
import AmbienceSystem

/// Light in lux as a function of monotonic time in seconds: what an emulated chip sees.
public typealias LightSource = (Double) -> Double

/// A chip on the mock bus: it hears write transfers and answers read transfers, at a time.
public protocol I2CDeviceEmulator: AnyObject {
    func receive(_ bytes: [UInt8], at time: Double)
    func transmit(count: Int, at time: Double) -> [UInt8]
    /// Power returns after a loss: every register back to its power-on default.
    func powerOnReset(at time: Double)
    /// Whether the chip acknowledges its address now; one that does not fails every transfer as
    /// an absent chip does (a monitor that goes deaf when off).
    var acknowledges: Bool { get }
}

extension I2CDeviceEmulator {
    public var acknowledges: Bool { true }
}

/// A failure the mock bus can be told to produce, with the errno a real adapter gives.
public enum InjectedFault: Equatable, Sendable {
    /// The chip does not acknowledge (EREMOTEIO).
    case notAcknowledged
    /// The transfer breaks off (EIO).
    case ioError
    /// The adapter times out (ETIMEDOUT).
    case timedOut
}

/// An I2C bus in memory: emulated chips by address, a clock for their conversions, and faults
/// on demand. Transfers take no time; a driver's waits move the (injected) clock.
public final class MockI2CBus: I2CBus {
    public let name: String
    public let clock: any Clock
    private var devices: [I2CAddress: any I2CDeviceEmulator] = [:]
    private var unpluggedAddresses: Set<I2CAddress> = []
    private var queuedFaults: [I2CAddress: [InjectedFault]] = [:]
    private var lastingFaults: [I2CAddress: InjectedFault] = [:]
    private var kernelDrivers: [I2CAddress: String] = [:]
    /// Transfers addressed to each address so far, failed ones included.
    public private(set) var transferCounts: [I2CAddress: Int] = [:]
    /// Every byte string written to a chip that took it, in order: what a driver told the chips.
    public private(set) var writes: [(address: I2CAddress, bytes: [UInt8])] = []

    public init(name: String = "mock-i2c", clock: any Clock) {
        self.name = name
        self.clock = clock
    }

    public func attach(_ device: any I2CDeviceEmulator, at address: I2CAddress) {
        devices[address] = device
        device.powerOnReset(at: clock.now)
    }

    /// Pulls the chip off the bus: it acknowledges nothing until replugged.
    public func unplug(_ address: I2CAddress) {
        unpluggedAddresses.insert(address)
    }

    /// Puts the chip back, powered up afresh: it has lost every setting.
    public func replug(_ address: I2CAddress) {
        unpluggedAddresses.remove(address)
        devices[address]?.powerOnReset(at: clock.now)
    }

    /// The next `count` transfers to the address fail with `fault`.
    public func injectFault(_ fault: InjectedFault, at address: I2CAddress, count: Int = 1) {
        queuedFaults[address, default: []] += Array(repeating: fault, count: count)
    }

    /// Every transfer to the address fails with `fault` until this is called again with nil.
    public func setLastingFault(_ fault: InjectedFault?, at address: I2CAddress) {
        lastingFaults[address] = fault
    }

    /// Behaves as if a kernel driver were bound to the address (EBUSY), until released.
    public func claim(_ address: I2CAddress, byKernelDriver driver: String) {
        kernelDrivers[address] = driver
    }

    public func release(_ address: I2CAddress) {
        kernelDrivers[address] = nil
    }

    // MARK: I2CBus

    public func write(_ bytes: [UInt8], to address: I2CAddress) throws(I2CError) {
        try device(at: address).receive(bytes, at: clock.now)
        writes.append((address, bytes))
    }

    public func read(count: Int, from address: I2CAddress) throws(I2CError) -> [UInt8] {
        try device(at: address).transmit(count: count, at: clock.now)
    }

    public func writeThenRead(_ bytes: [UInt8], readCount: Int, address: I2CAddress) throws(I2CError)
        -> [UInt8]
    {
        let device = try device(at: address)
        device.receive(bytes, at: clock.now)
        writes.append((address, bytes))
        return device.transmit(count: readCount, at: clock.now)
    }

    /// The device a transfer reaches, or the error it meets on the way.
    private func device(at address: I2CAddress) throws(I2CError) -> any I2CDeviceEmulator {
        transferCounts[address, default: 0] += 1
        if let driver = kernelDrivers[address] {
            let device = "mock-00" + hex(address.rawValue).lowercased()
            throw I2CError(
                .addressBusy(driver: driver, device: device), bus: name, address: address,
                errno: .resourceBusy)
        }
        if var queue = queuedFaults[address], !queue.isEmpty {
            let fault = queue.removeFirst()
            queuedFaults[address] = queue
            throw error(fault, address)
        }
        if let fault = lastingFaults[address] { throw error(fault, address) }
        guard let device = devices[address], !unpluggedAddresses.contains(address), device.acknowledges else {
            throw I2CError(.notAcknowledged, bus: name, address: address, errno: .noSuchAddressOrDevice)
        }
        return device
    }

    private func error(_ fault: InjectedFault, _ address: I2CAddress) -> I2CError {
        switch fault {
        case .notAcknowledged: I2CError(.notAcknowledged, bus: name, address: address, errno: .remoteIO)
        case .ioError: I2CError(.ioError, bus: name, address: address, errno: .ioError)
        case .timedOut: I2CError(.timedOut, bus: name, address: address, errno: .timedOut)
        }
    }
}
