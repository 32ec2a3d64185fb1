/// The fingers on a touchscreen, from the kernel's input events (linux/input.h): whether any is
/// down, and when the first comes down. Single-touch devices say so with BTN_TOUCH; multi-touch
/// ones (protocol B) with a tracking id per slot, and usually BTN_TOUCH besides. A frame ends at
/// SYN_REPORT; SYN_DROPPED means events were lost, and every contact is forgotten.
public struct TouchContacts: Sendable {
    public static let synchronization: UInt16 = 0x00  // EV_SYN
    public static let key: UInt16 = 0x01  // EV_KEY
    public static let absolute: UInt16 = 0x03  // EV_ABS
    static let report: UInt16 = 0x00  // SYN_REPORT
    static let dropped: UInt16 = 0x03  // SYN_DROPPED
    public static let touchButton: UInt16 = 0x14A  // BTN_TOUCH
    static let slotCode: UInt16 = 0x2F  // ABS_MT_SLOT
    static let trackingID: UInt16 = 0x39  // ABS_MT_TRACKING_ID

    /// Whether a contact was down at the end of the last frame.
    public private(set) var isTouching = false
    private var button = false
    private var slot: Int32 = 0
    /// One bit per multi-touch slot with a contact: no hashed set for the ten slots a screen has
    /// (and no Hasher in the daemon's binary); slots past 63 count as the last.
    private var activeSlots: UInt64 = 0

    public init() {}

    /// Takes one event; true when it ends a frame in which the first contact came down.
    public mutating func take(type: UInt16, code: UInt16, value: Int32) -> Bool {
        switch (type, code) {
        case (Self.key, Self.touchButton):
            button = value != 0
        case (Self.absolute, Self.slotCode):
            slot = value
        case (Self.absolute, Self.trackingID):
            let bit = UInt64(1) << UInt64(min(max(slot, 0), 63))
            if value < 0 { activeSlots &= ~bit } else { activeSlots |= bit }
        case (Self.synchronization, Self.dropped):
            button = false
            activeSlots = 0
            isTouching = false
        case (Self.synchronization, Self.report):
            let touching = button || activeSlots != 0
            defer { isTouching = touching }
            return touching && !isTouching
        default:
            break
        }
        return false
    }
}
