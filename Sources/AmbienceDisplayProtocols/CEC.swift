import AmbienceCore

/// HDMI-CEC, the messages a player and a television exchange over the HDMI cable's CEC line (HDMI
/// 1.4b, CEC 1.4): only what a display's power needs. Pure: bytes in, bytes out; the driver that
/// hands them to the kernel's CEC framework is `CECDisplay`.
///
/// A message's first byte is its header: the initiator's logical address in the high nibble, the
/// destination's in the low one (15 is broadcast as a destination and "unregistered" as an
/// initiator). The opcode follows, then its operands.
public enum CEC {
    /// The television's logical address: every TV has this one.
    public static let television: UInt8 = 0
    /// An initiator without a logical address; the only one an adapter without a physical address
    /// (a TV that pulled hot-plug low in standby) may send from.
    public static let unregistered: UInt8 = 15
    /// Broadcast, as a destination.
    public static let broadcast: UInt8 = 15
    /// A physical address no device has: the adapter's while nothing is plugged in (or the TV
    /// has pulled hot-plug low).
    public static let invalidPhysicalAddress: UInt16 = 0xFFFF

    public static let imageViewOn: UInt8 = 0x04
    public static let standby: UInt8 = 0x36
    public static let activeSource: UInt8 = 0x82
    public static let giveDevicePowerStatus: UInt8 = 0x8F
    public static let reportPowerStatus: UInt8 = 0x90

    static func header(from initiator: UInt8, to destination: UInt8) -> UInt8 {
        (initiator & 0x0F) << 4 | (destination & 0x0F)
    }

    /// Image View On: the TV leaves standby and shows its current source. The one message, with
    /// a ping, the kernel lets an adapter without a physical address send, from `unregistered`.
    public static func imageViewOnMessage(from initiator: UInt8) -> [UInt8] {
        [header(from: initiator, to: television), imageViewOn]
    }

    /// Active Source, broadcast: the TV switches to the input at `physicalAddress`.
    public static func activeSourceMessage(from initiator: UInt8, physicalAddress: UInt16) -> [UInt8] {
        [
            header(from: initiator, to: broadcast), activeSource, UInt8(physicalAddress >> 8),
            UInt8(physicalAddress & 0xFF),
        ]
    }

    /// Standby, to the TV alone: a broadcast would put every device on the bus to sleep (the
    /// sound bar, the other players), which is not the kiosk's to decide.
    public static func standbyMessage(from initiator: UInt8) -> [UInt8] {
        [header(from: initiator, to: television), standby]
    }

    /// Give Device Power Status, to the TV; it answers Report Power Status.
    public static func powerStatusRequest(from initiator: UInt8) -> [UInt8] {
        [header(from: initiator, to: television), giveDevicePowerStatus]
    }

    /// The power a Report Power Status from the TV gives: 0 on and 2 (standby to on) awake, 1
    /// standby and 3 (on to standby) asleep, so a TV on its way is reported where it is going.
    /// Nil for anything else.
    public static func power(inReport message: [UInt8]) -> DisplayPower? {
        guard message.count == 3, message[0] >> 4 == television, message[1] == reportPowerStatus else {
            return nil
        }
        switch message[2] {
        case 0, 2: return .on
        case 1, 3: return .off
        default: return nil
        }
    }

    /// `40:04`, as `cec-ctl` writes a message.
    public static func describe(_ message: [UInt8]) -> String {
        message.map(hex).joined(separator: ":")
    }

    /// `1.0.0.0`, as HDMI writes a physical address; `f.f.f.f` is none.
    public static func describe(physicalAddress: UInt16) -> String {
        (0..<4).map { index in
            let nibble = (physicalAddress >> UInt16(12 - 4 * index)) & 0xF
            return String(nibble, radix: 16)
        }.joined(separator: ".")
    }
}
