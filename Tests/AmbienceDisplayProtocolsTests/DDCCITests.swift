import AmbienceDisplayProtocols
import Testing

/// The byte sequences are worked out by hand from the DDC/CI standard's framing: the host's
/// checksum XORs 0x6E and every byte, a reply's XORs 0x50 and every byte.
struct DDCCITests {
    @Test func getBrightnessRequestIsTheStandardsFiveBytes() {
        #expect(DDCCI.getRequest(0x10) == [0x51, 0x82, 0x01, 0x10, 0xAC])
    }

    @Test func setBrightnessRequestCarriesTheValueMostSignificantByteFirst() {
        #expect(DDCCI.setRequest(0x10, value: 50) == [0x51, 0x84, 0x03, 0x10, 0x00, 0x32, 0x9A])
        let wide = DDCCI.setRequest(0x10, value: 0x0102)
        #expect(wide[4] == 0x01 && wide[5] == 0x02)
        #expect(wide.dropLast().reduce(UInt8(0x6E), ^) == wide.last)
    }

    @Test func nullMessageIsSixEEightyBE() {
        #expect(DDCCI.nullMessage == [0x6E, 0x80, 0xBE])
    }

    @Test func decodesAGetReply() throws {
        let reply: [UInt8] = [0x6E, 0x88, 0x02, 0x00, 0x10, 0x00, 0x00, 0x64, 0x00, 0x32, 0xF2]
        let value = try DDCCI.decodeGetReply(reply, code: 0x10)
        #expect(value == DDCCI.FeatureValue(code: 0x10, maximum: 100, current: 50))
        #expect(DDCCI.getReply(value) == reply)
    }

    @Test func aReplyMayBeReadWithTrailingBytes() throws {
        let reply: [UInt8] = [0x6E, 0x88, 0x02, 0x00, 0x10, 0x00, 0x00, 0x64, 0x00, 0x32, 0xF2, 0xFF, 0xFF]
        #expect(try DDCCI.decodeGetReply(reply, code: 0x10).current == 50)
    }

    @Test func refusesABadChecksum() {
        let reply: [UInt8] = [0x6E, 0x88, 0x02, 0x00, 0x10, 0x00, 0x00, 0x64, 0x00, 0x32, 0xF3]
        #expect(throws: DDCCI.ReplyError.badChecksum(expected: 0xF2, received: 0xF3)) {
            try DDCCI.decodeGetReply(reply, code: 0x10)
        }
    }

    @Test func refusesTheNullMessage() {
        #expect(throws: DDCCI.ReplyError.nullMessage) {
            try DDCCI.decodeGetReply([0x6E, 0x80, 0xBE, 0, 0, 0, 0, 0, 0, 0, 0], code: 0x10)
        }
    }

    @Test func refusesBadFramingAndShortReplies() {
        #expect(throws: DDCCI.ReplyError.badFraming) {
            try DDCCI.decodeGetReply([0xFF, 0xFF, 0xFF], code: 0x10)
        }
        #expect(throws: DDCCI.ReplyError.badFraming) {
            try DDCCI.decodeGetReply([0x6E, 0x08, 0x02], code: 0x10)
        }
        #expect(throws: DDCCI.ReplyError.truncated) {
            try DDCCI.decodeGetReply([0x6E, 0x88, 0x02, 0x00, 0x10], code: 0x10)
        }
        // A Get reply's payload is eight bytes, not more.
        var long: [UInt8] = [0x6E, 0x89, 0x02, 0x00, 0x10, 0x00, 0x00, 0x64, 0x00, 0x32, 0x00]
        long.append(long.reduce(UInt8(0x50), ^))
        #expect(throws: DDCCI.ReplyError.badFraming) { try DDCCI.decodeGetReply(long, code: 0x10) }
    }

    @Test func reportsAnUnsupportedFeatureAndAnotherFeature() {
        let unsupported = DDCCI.getReply(DDCCI.FeatureValue(code: 0x10, maximum: 0, current: 0), result: 0x01)
        #expect(throws: DDCCI.ReplyError.unsupported(code: 0x10, result: 0x01)) {
            try DDCCI.decodeGetReply(unsupported, code: 0x10)
        }
        let contrast = DDCCI.getReply(DDCCI.FeatureValue(code: 0x12, maximum: 100, current: 70))
        #expect(throws: DDCCI.ReplyError.otherFeature(0x12)) {
            try DDCCI.decodeGetReply(contrast, code: 0x10)
        }
    }

    @Test func aMonitorDecodesTheHostsRequests() {
        #expect(DDCCI.decodeRequest(DDCCI.getRequest(0x10)) == .get(code: 0x10))
        #expect(DDCCI.decodeRequest(DDCCI.setRequest(0x10, value: 300)) == .set(code: 0x10, value: 300))
        #expect(DDCCI.decodeRequest([0x51, 0x82, 0x01, 0x10, 0xAD]) == nil)
        #expect(DDCCI.decodeRequest([0x51, 0x81, 0xF1, 0x4F]) == nil)
    }
}

struct EDIDTests {
    /// A base block written out by hand: Dell's PNP id (D=4, E=5, L=12: 0x10AC), product
    /// 0xA0C4, serial 0x12345678, the name "DELL U2415" in the second descriptor.
    static let dell: [UInt8] = {
        var bytes: [UInt8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x10, 0xAC, 0xC4, 0xA0]
        bytes += [0x78, 0x56, 0x34, 0x12, 0x01, 0x1A, 0x01, 0x04]
        bytes += [UInt8](repeating: 0, count: 54 - bytes.count)
        bytes += [0x3A, 0x01] + [UInt8](repeating: 0x11, count: 16)  // a detailed timing
        bytes += [0x00, 0x00, 0x00, 0xFC, 0x00] + Array("DELL U2415".utf8) + [0x0A, 0x20, 0x20]
        bytes += [0x00, 0x00, 0x00, 0xFF, 0x00] + Array("7MT0123456AB".utf8) + [0x0A]
        bytes += [0x00, 0x00, 0x00, 0x10] + [UInt8](repeating: 0, count: 14)
        bytes.append(0)
        bytes.append(0 &- bytes.reduce(UInt8(0), &+))
        return bytes
    }()

    @Test func namesTheMonitor() throws {
        #expect(EDIDTests.dell.count == 128)
        let edid = try EDID(decoding: EDIDTests.dell)
        #expect(edid.manufacturer == "DEL")
        #expect(edid.productCode == 0xA0C4)
        #expect(edid.serialNumber == 0x1234_5678)
        #expect(edid.monitorName == "DELL U2415")
    }

    @Test func checksHeaderLengthAndChecksum() {
        var corrupted = EDIDTests.dell
        corrupted[60] &+= 1
        #expect(throws: EDID.DecodingError.badChecksum(sum: 1)) { try EDID(decoding: corrupted) }
        var headless = EDIDTests.dell
        headless[0] = 0xFF
        #expect(throws: EDID.DecodingError.badHeader) { try EDID(decoding: headless) }
        #expect(throws: EDID.DecodingError.tooShort(64)) { try EDID(decoding: Array(EDIDTests.dell[0..<64])) }
    }

    @Test func withoutANameDescriptorThereIsNoName() throws {
        var nameless = EDIDTests.dell
        nameless[72 + 3] = 0x10
        nameless[127] = 0
        nameless[127] = 0 &- nameless.reduce(UInt8(0), &+)
        #expect(try EDID(decoding: nameless).monitorName == nil)
    }

    @Test func encodedBlocksDecodeToTheSameIdentity() throws {
        let identity = EDID(
            manufacturer: "AMB", productCode: 0x0037, serialNumber: 7, monitorName: "Ambience DDC")
        let bytes = identity.encoded()
        #expect(bytes.count == 128)
        #expect(try EDID(decoding: bytes) == identity)
        let longName = EDID(manufacturer: "AMB", productCode: 1, monitorName: "Thirteen char")
        #expect(try EDID(decoding: longName.encoded()).monitorName == "Thirteen char")
    }
}
