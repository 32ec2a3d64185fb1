/// A 7-bit I2C address, shown the way datasheets and i2cdetect show it: 0x39.
public struct I2CAddress: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public init(integerLiteral value: UInt8) { rawValue = value }

    /// An address from configuration; nil outside 0x03–0x77 (the rest is reserved by the I2C spec).
    public init?(validating value: Int) {
        guard (0x03...0x77).contains(value) else { return nil }
        rawValue = UInt8(value)
    }

    public var description: String { "0x" + hexadecimal(rawValue, digits: 2) }

    public static func < (lhs: I2CAddress, rhs: I2CAddress) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Upper-case hexadecimal, zero-padded: how chips' registers and addresses are written, by the
/// bus and by the chips' drivers alike.
public func hexadecimal<T: BinaryInteger>(_ value: T, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
