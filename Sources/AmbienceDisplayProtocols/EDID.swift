/// A monitor's EDID base block (VESA E-EDID 1.3/1.4), decoded only as far as naming the
/// monitor needs: the manufacturer, the product code, the serial number and the monitor name
/// descriptor. Pure; read from address 0x50 by `ambience probe`.
public struct EDID: Equatable, Sendable {
    /// The base block's length; extension blocks follow it and are not read.
    public static let length = 128
    static let header: [UInt8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
    /// The four 18-byte descriptors' offsets.
    static let descriptorOffsets = [54, 72, 90, 108]
    static let monitorNameTag: UInt8 = 0xFC
    /// A descriptor's text is 13 bytes, ended early by a line feed and padded with spaces.
    static let descriptorTextLength = 13

    /// The PNP id, three capital letters ("DEL", "GSM").
    public var manufacturer: String
    public var productCode: UInt16
    public var serialNumber: UInt32
    /// The monitor name descriptor's text, when there is one.
    public var monitorName: String?

    public init(manufacturer: String, productCode: UInt16, serialNumber: UInt32 = 0, monitorName: String?) {
        self.manufacturer = manufacturer
        self.productCode = productCode
        self.serialNumber = serialNumber
        self.monitorName = monitorName
    }

    public enum DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
        case tooShort(Int)
        case badHeader
        /// The 128 bytes do not add up to 0 modulo 256.
        case badChecksum(sum: UInt8)

        public var description: String {
            switch self {
            case .tooShort(let count): "an EDID of \(count) bytes, shorter than its 128-byte base block"
            case .badHeader: "not an EDID (its 8-byte header is wrong)"
            case .badChecksum(let sum): "EDID checksum wrong (its bytes add up to \(sum), not 0)"
            }
        }
    }

    /// Decodes the base block at the start of `bytes`.
    public init(decoding bytes: [UInt8]) throws(DecodingError) {
        guard bytes.count >= Self.length else { throw .tooShort(bytes.count) }
        guard Array(bytes[0..<8]) == Self.header else { throw .badHeader }
        let sum = bytes[0..<Self.length].reduce(UInt8(0), &+)
        guard sum == 0 else { throw .badChecksum(sum: sum) }
        // Three 5-bit letters, 1 for A, in bytes 8 and 9, most significant first.
        let packed = UInt16(bytes[8]) << 8 | UInt16(bytes[9])
        let letters = [packed >> 10, packed >> 5, packed].map { UInt8(0x40 + ($0 & 0x1F)) }
        manufacturer = String(decoding: letters, as: UTF8.self)
        productCode = UInt16(bytes[10]) | UInt16(bytes[11]) << 8
        serialNumber = bytes[12..<16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        monitorName = nil
        // A display descriptor begins 00 00 00 TAG 00; a detailed timing has a pixel clock there.
        for offset in Self.descriptorOffsets
        where bytes[offset] == 0 && bytes[offset + 1] == 0 && bytes[offset + 3] == Self.monitorNameTag {
            let text = bytes[(offset + 5)..<(offset + 5 + Self.descriptorTextLength)]
            var name = Array(text.prefix { $0 != 0x0A })
            while name.last == 0x20 { name.removeLast() }
            monitorName = String(decoding: name, as: UTF8.self)
            break
        }
    }

    /// A base block with these identities and no timings: what the emulators answer at 0x50.
    public func encoded() -> [UInt8] {
        var bytes = Self.header
        let letters = Array(manufacturer.utf8.prefix(3)).map { UInt16($0 &- 0x40) & 0x1F }
        let packed = letters.count == 3 ? letters[0] << 10 | letters[1] << 5 | letters[2] : 0
        bytes += [
            UInt8(packed >> 8), UInt8(packed & 0xFF), UInt8(productCode & 0xFF), UInt8(productCode >> 8),
        ]
        bytes += (0..<4).map { UInt8((serialNumber >> (8 * UInt32($0))) & 0xFF) }
        // Week, year (2024), version 1.4, a digital input, no size, gamma 2.2, features.
        bytes += [1, 34, 1, 4, 0x80, 0, 0, 120, 0x0A]
        bytes += [UInt8](repeating: 0, count: Self.descriptorOffsets[0] - bytes.count)
        for offset in Self.descriptorOffsets {
            var descriptor = [UInt8](repeating: 0, count: 18)
            if offset == Self.descriptorOffsets[0], let monitorName {
                descriptor[3] = Self.monitorNameTag
                let text = Array(monitorName.utf8.prefix(Self.descriptorTextLength))
                let padded = text + (text.count < Self.descriptorTextLength ? [0x0A] : [])
                for (index, byte) in padded.enumerated() { descriptor[5 + index] = byte }
                for index in (5 + padded.count)..<18 { descriptor[index] = 0x20 }
            } else {
                descriptor[3] = 0x10  // the dummy descriptor
            }
            bytes += descriptor
        }
        bytes.append(0)  // no extension blocks
        bytes.append(0 &- bytes.reduce(UInt8(0), &+))
        return bytes
    }
}
