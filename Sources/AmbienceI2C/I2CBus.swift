/// One I2C bus as a driver sees it: three transfers, addressed per call. Small on purpose, so a
/// fake can script it byte for byte and an emulator can answer it register by register.
///
/// A transfer either happens whole or throws; there is no partial success to handle.
public protocol I2CBus: AnyObject {
    /// What to call the bus in messages: "/dev/i2c-1", or a mock's name.
    var name: String { get }

    /// One write transfer: START, address+W, the bytes, STOP.
    func write(_ bytes: [UInt8], to address: I2CAddress) throws(I2CError)

    /// One read transfer: START, address+R, `count` bytes, STOP.
    func read(count: Int, from address: I2CAddress) throws(I2CError) -> [UInt8]

    /// A write then a read joined by a repeated START, so nobody can slip in between: how
    /// register reads (SMBus "read byte data", "read word data") look on the wire.
    func writeThenRead(_ bytes: [UInt8], readCount: Int, address: I2CAddress) throws(I2CError) -> [UInt8]
}

/// SMBus transactions, spelled as the I2C transfers they are on the wire.
extension I2CBus {
    public func writeByteData(command: UInt8, value: UInt8, to address: I2CAddress) throws(I2CError) {
        try write([command, value], to: address)
    }

    public func readByteData(command: UInt8, from address: I2CAddress) throws(I2CError) -> UInt8 {
        try writeThenRead([command], readCount: 1, address: address)[0]
    }

    /// SMBus words travel low byte first.
    public func readWordData(command: UInt8, from address: I2CAddress) throws(I2CError) -> UInt16 {
        let bytes = try writeThenRead([command], readCount: 2, address: address)
        return UInt16(bytes[0]) | UInt16(bytes[1]) << 8
    }
}
