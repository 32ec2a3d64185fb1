/// DDC/CI, the messages a host and a monitor exchange over the display cable's I2C lines (VESA
/// DDC/CI 1.1, with the feature codes of MCCS): only what brightness needs, Get and Set VCP
/// Feature. Pure: bytes in, bytes out; the driver that puts them on a bus is `DDCMonitor`.
///
/// On the wire the monitor is the 7-bit address 0x37 (0x6E written, 0x6F read). A message from
/// the host is the host's source address 0x51, a length byte (0x80 | payload length), the
/// payload and a checksum: the XOR of the destination address 0x6E and every byte before the
/// checksum. A reply starts with the monitor's address 0x6E; its checksum XORs in 0x50, the
/// address the standard gives the host as a reply's destination, in place of the 0x6F the read
/// was addressed to.
public enum DDCCI {
    /// The monitor's 7-bit I2C address for DDC/CI.
    public static let displayAddress: UInt8 = 0x37
    /// The address of the monitor's EDID (E-DDC), beside it on the same bus.
    public static let edidAddress: UInt8 = 0x50
    /// VCP feature 0x10: the luminance (backlight) control.
    public static let brightness: UInt8 = 0x10
    /// VCP feature 0xD6: the power mode. 1 on; 2 standby, 3 suspend, 4 off; 5 off as the power
    /// button does it (write only).
    public static let powerMode: UInt8 = 0xD6

    /// The standard's delays, in seconds. After a Get VCP Feature request the monitor needs 40 ms
    /// before its reply may be read.
    public static let replyDelay = 0.040
    /// After any other message (a Set VCP Feature, a reply read) the host waits 50 ms before the
    /// next one.
    public static let messageDelay = 0.050

    /// A Get VCP Feature reply's length on the wire: source, length, eight bytes, checksum.
    public static let getReplyLength = 11

    static let hostSource: UInt8 = 0x51
    static let displayWriteAddress: UInt8 = 0x6E
    static let replyDestination: UInt8 = 0x50
    static let getRequestOpcode: UInt8 = 0x01
    static let getReplyOpcode: UInt8 = 0x02
    static let setRequestOpcode: UInt8 = 0x03
    static let lengthFlag: UInt8 = 0x80

    /// XOR of `seed` and every byte.
    public static func checksum(_ bytes: ArraySlice<UInt8>, seed: UInt8) -> UInt8 {
        bytes.reduce(seed, ^)
    }

    /// The bytes a host writes to 0x37 for a payload, framed.
    static func hostMessage(_ payload: [UInt8]) -> [UInt8] {
        var message = [hostSource, lengthFlag | UInt8(payload.count)] + payload
        message.append(checksum(message[...], seed: displayWriteAddress))
        return message
    }

    /// Get VCP Feature for `code`: 51 82 01 CODE CHK.
    public static func getRequest(_ code: UInt8) -> [UInt8] {
        hostMessage([getRequestOpcode, code])
    }

    /// Set VCP Feature `code` to `value`, most significant byte first: 51 84 03 CODE HI LO CHK.
    public static func setRequest(_ code: UInt8, value: UInt16) -> [UInt8] {
        hostMessage([setRequestOpcode, code, UInt8(value >> 8), UInt8(value & 0xFF)])
    }

    /// A feature's value as a Get VCP Feature reply gives it.
    public struct FeatureValue: Equatable, Sendable {
        public var code: UInt8
        /// True for a momentary feature (type 0x01), false for a set parameter (0x00).
        public var isMomentary: Bool
        public var maximum: UInt16
        public var current: UInt16

        public init(code: UInt8, isMomentary: Bool = false, maximum: UInt16, current: UInt16) {
            self.code = code
            self.isMomentary = isMomentary
            self.maximum = maximum
            self.current = current
        }
    }

    /// Why a reply was refused.
    public enum ReplyError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The null message (6E 80 BE): the monitor has no reply ready, or nothing to say.
        case nullMessage
        /// Fewer bytes than the length byte promises.
        case truncated
        /// The first byte is not the monitor's address 0x6E, or the length byte lacks 0x80.
        case badFraming
        case badChecksum(expected: UInt8, received: UInt8)
        /// A reply of another kind (its opcode).
        case unexpectedOpcode(UInt8)
        /// The monitor says it has no such feature (result code 0x01), or another result code.
        case unsupported(code: UInt8, result: UInt8)
        /// A reply about another feature than the one asked for.
        case otherFeature(UInt8)

        public var description: String {
            switch self {
            case .nullMessage: "the monitor sent the null message (no reply ready)"
            case .truncated: "a reply shorter than its length byte says"
            case .badFraming: "not a DDC/CI reply (its source or length byte is wrong)"
            case .badChecksum(let expected, let received):
                "bad checksum (0x\(hex(received)), expected 0x\(hex(expected)))"
            case .unexpectedOpcode(let opcode): "a reply of another kind (opcode 0x\(hex(opcode)))"
            case .unsupported(let code, let result):
                "VCP feature 0x\(hex(code)) "
                    + (result == 0x01 ? "is not supported" : "gave result code 0x\(hex(result))")
            case .otherFeature(let code): "a reply about VCP feature 0x\(hex(code))"
            }
        }
    }

    /// The payload of a reply as read from 0x37, its framing and checksum checked.
    static func replyPayload(_ bytes: [UInt8]) throws(ReplyError) -> ArraySlice<UInt8> {
        guard bytes.count >= 3, bytes[0] == displayWriteAddress, bytes[1] & lengthFlag != 0 else {
            throw .badFraming
        }
        let length = Int(bytes[1] & ~lengthFlag)
        guard bytes.count >= 3 + length else { throw .truncated }
        let expected = checksum(bytes[0..<(2 + length)], seed: replyDestination)
        guard bytes[2 + length] == expected else {
            throw .badChecksum(expected: expected, received: bytes[2 + length])
        }
        guard length > 0 else { throw .nullMessage }
        return bytes[2..<(2 + length)]
    }

    /// A Get VCP Feature reply for `code`: 6E 88 02 RC CODE TYPE MH ML SH SL CHK.
    public static func decodeGetReply(_ bytes: [UInt8], code: UInt8) throws(ReplyError) -> FeatureValue {
        let payload = Array(try replyPayload(bytes))
        guard payload[0] == getReplyOpcode else { throw .unexpectedOpcode(payload[0]) }
        guard payload.count >= 8 else { throw .truncated }
        guard payload.count == 8 else { throw .badFraming }
        guard payload[1] == 0x00 else { throw .unsupported(code: payload[2], result: payload[1]) }
        guard payload[2] == code else { throw .otherFeature(payload[2]) }
        return FeatureValue(
            code: code, isMomentary: payload[3] == 0x01,
            maximum: UInt16(payload[4]) << 8 | UInt16(payload[5]),
            current: UInt16(payload[6]) << 8 | UInt16(payload[7]))
    }

    // MARK: The monitor's side, for emulators

    /// What a monitor hears from the host.
    public enum Request: Equatable, Sendable {
        case get(code: UInt8)
        case set(code: UInt8, value: UInt16)
    }

    /// A host's message as a monitor receives it (the bytes after the address), or nil when its
    /// framing or checksum is wrong or it is not a Get or Set VCP Feature.
    public static func decodeRequest(_ bytes: [UInt8]) -> Request? {
        guard bytes.count >= 3, bytes[0] == hostSource, bytes[1] & lengthFlag != 0 else { return nil }
        let length = Int(bytes[1] & ~lengthFlag)
        guard bytes.count == 3 + length,
            bytes[2 + length] == checksum(bytes[0..<(2 + length)], seed: displayWriteAddress)
        else { return nil }
        switch (bytes.count > 2 ? bytes[2] : 0, length) {
        case (getRequestOpcode, 2): return .get(code: bytes[3])
        case (setRequestOpcode, 4):
            return .set(code: bytes[3], value: UInt16(bytes[4]) << 8 | UInt16(bytes[5]))
        default: return nil
        }
    }

    /// A monitor's reply to Get VCP Feature; `result` 0x01 says the feature is unsupported.
    public static func getReply(_ value: FeatureValue, result: UInt8 = 0x00) -> [UInt8] {
        reply([
            getReplyOpcode, result, value.code, value.isMomentary ? 0x01 : 0x00,
            UInt8(value.maximum >> 8), UInt8(value.maximum & 0xFF),
            UInt8(value.current >> 8), UInt8(value.current & 0xFF),
        ])
    }

    /// The null message: 6E 80 BE.
    public static let nullMessage = reply([])

    static func reply(_ payload: [UInt8]) -> [UInt8] {
        var message = [displayWriteAddress, lengthFlag | UInt8(payload.count)] + payload
        message.append(checksum(message[...], seed: replyDestination))
        return message
    }
}

/// Two upper-case hexadecimal digits.
func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0" + digits : digits
}
