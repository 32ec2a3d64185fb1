import AmbienceSystem

/// An HDMI port's CEC adapter, as `CECDisplay` uses it: the kernel's CEC framework (/dev/cecN)
/// in the daemon, a scripted television in tests. No call waits for the bus.
public protocol CECAdapter: AnyObject {
    /// The adapter's physical address; `CEC.invalidPhysicalAddress` while nothing is plugged in
    /// or the TV holds hot-plug low.
    func physicalAddress() throws(Errno) -> UInt16
    /// The logical address the adapter has claimed; nil while it has none.
    func logicalAddress() throws(Errno) -> UInt8?
    /// Hands `message` to the bus, asking for the reply with opcode `reply` if given; returns the
    /// number its outcome will carry.
    func transmit(_ message: [UInt8], reply: UInt8?) throws(Errno) -> UInt32
    /// The next outcome of a message sent, nil when none is waiting.
    func receive() throws(Errno) -> CECOutcome?
    func close()
}

extension LinuxCECAdapter: CECAdapter {}
