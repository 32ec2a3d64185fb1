import AmbienceI2C

/// Register access as the ams (TAOS) TSL2591 and TCS3472x take it: every transfer starts with a
/// command byte 0xA0 | register, CMD (bit 7) with an auto-incrementing access (bits 6:5, 01),
/// so a block read runs on through the registers after the first.
struct AmsRegisters {
    let bus: any I2CBus
    let address: I2CAddress
    /// The sensor's name in errors ("TCS34725 at /dev/i2c-1 0x29").
    let sensor: String

    static func command(_ register: UInt8) -> UInt8 { 0xA0 | register }

    func readByte(_ register: UInt8) throws(SensorError) -> UInt8 {
        try onBus(sensor) { () throws(I2CError) in
            try bus.readByteData(command: Self.command(register), from: address)
        }
    }

    func readBlock(from register: UInt8, count: Int) throws(SensorError) -> [UInt8] {
        try onBus(sensor) { () throws(I2CError) in
            try bus.writeThenRead([Self.command(register)], readCount: count, address: address)
        }
    }

    func writeByte(_ register: UInt8, _ value: UInt8) throws(SensorError) {
        try onBus(sensor) { () throws(I2CError) in
            try bus.writeByteData(command: Self.command(register), value: value, to: address)
        }
    }
}
