import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceI2C

/// A monitor's DDC/CI at 0x37, as the DDC/CI standard describes it, for VCP features 0x10 (the
/// brightness) and 0xD6 (the power mode).
///
/// - A write transfer is a host message (source 0x51, length, payload, checksum). Get VCP
///   Feature makes a reply ready 40 ms later; Set VCP Feature 0x10 sets the brightness (values
///   above the maximum are clamped, as monitors do), 0xD6 the power mode. Other features answer
///   "unsupported".
/// - Monitors differ in their power modes, as `PowerQuirk` lists; the rig's test module
///   emulates the same three.
/// - A read transfer returns the reply ready, once; with none, the null message.
/// - Timing the standard asks of the host is checked, not enforced: a reply read sooner than
///   40 ms after its request, or a message sooner than 50 ms after the last Set or reply read,
///   is a protocol violation, listed for tests.
/// - The brightness is kept across a power loss (monitors store it); `brightnessAtPowerOn`
///   makes one come back at another.
public final class DDCMonitorEmulator: I2CDeviceEmulator {
    public var maximum: UInt16
    public var brightness: UInt16
    public var brightnessAtPowerOn: UInt16?
    /// Fault injection: the next this many replies carry a wrong checksum.
    public var corruptedReplies = 0
    /// Fault injection: the next this many reads give the null message.
    public var nullReplies = 0
    public private(set) var protocolViolations: [String] = []
    /// Every Set VCP Feature 0x10 heard: when, and the value.
    public private(set) var setRequests: [(time: Double, value: UInt16)] = []
    public private(set) var getRequestCount = 0
    /// VCP 0xD6 as the monitor is: 1 on, 2 standby, 3 suspend, 4 or 5 off. Setting it is the
    /// monitor's own power button.
    public var powerMode: UInt16 = 1
    public var powerQuirk = PowerQuirk.honest
    /// Every Set VCP Feature 0xD6 heard: when, and the value.
    public private(set) var powerSets: [(time: Double, value: UInt16)] = []

    /// The ways monitors differ in their power modes.
    public enum PowerQuirk: Sendable {
        /// Sets and reads back every mode as the standard says.
        case honest
        /// Off (4 or 5), it answers nothing at 0x37 until its button wakes it; from standby (2) a
        /// Set of 1 wakes it.
        case deafWhenOff
        /// Off (4 or 5), it reads back standby (2).
        case readsStandbyForOff
        /// Any Get VCP while it sleeps wakes it (the reply still has the mode before).
        case readWakes
    }

    public var acknowledges: Bool { !(powerQuirk == .deafWhenOff && powerMode >= 4) }

    private var reply: (bytes: [UInt8], readyAt: Double)?
    /// When the last Set or reply read ended: the next message waits 50 ms from it.
    private var lastMessageAt = -Double.infinity

    public init(maximum: UInt16 = 100, brightness: UInt16 = 50) {
        self.maximum = maximum
        self.brightness = brightness
    }

    public func powerOnReset(at time: Double) {
        reply = nil
        lastMessageAt = -Double.infinity
        if let brightnessAtPowerOn { brightness = brightnessAtPowerOn }
    }

    public func receive(_ bytes: [UInt8], at time: Double) {
        checkSpacing(at: time)
        switch DDCCI.decodeRequest(bytes) {
        case .get(let code)?:
            getRequestCount += 1
            let value =
                code == DDCCI.powerMode
                ? DDCCI.FeatureValue(
                    code: code, maximum: 5,
                    current: powerQuirk == .readsStandbyForOff && powerMode >= 4 ? 2 : powerMode)
                : DDCCI.FeatureValue(code: code, maximum: maximum, current: brightness)
            let supported = code == DDCCI.brightness || code == DDCCI.powerMode
            reply = (DDCCI.getReply(value, result: supported ? 0x00 : 0x01), time + DDCCI.replyDelay)
            if powerQuirk == .readWakes, powerMode != 1 { powerMode = 1 }
        case .set(let code, let value)?:
            lastMessageAt = time
            if code == DDCCI.powerMode, (1...5).contains(value) {
                powerSets.append((time, value))
                powerMode = value
            }
            guard code == DDCCI.brightness else { return }
            setRequests.append((time, value))
            brightness = min(value, maximum)
        case nil:
            protocolViolations.append(
                "a message that is not Get or Set VCP Feature: \(bytes.map(hex).joined(separator: " "))")
        }
    }

    public func transmit(count: Int, at time: Double) -> [UInt8] {
        checkSpacing(at: time)
        lastMessageAt = time
        var bytes = DDCCI.nullMessage
        if let reply {
            if time < reply.readyAt {
                let early = Int(((reply.readyAt - time) * 1000).rounded())
                protocolViolations.append("reply read \(early) ms before the 40 ms the standard asks")
            }
            self.reply = nil
            if nullReplies > 0 {
                nullReplies -= 1
            } else {
                bytes = reply.bytes
                if corruptedReplies > 0 {
                    corruptedReplies -= 1
                    bytes[bytes.count - 1] ^= 0xFF
                }
            }
        }
        return (0..<count).map { $0 < bytes.count ? bytes[$0] : 0xFF }
    }

    private func checkSpacing(at time: Double) {
        if time < lastMessageAt + DDCCI.messageDelay {
            let gap = Int(((time - lastMessageAt) * 1000).rounded())
            protocolViolations.append("a message \(gap) ms after the last, not the 50 ms the standard asks")
        }
    }
}

/// A monitor's EDID at 0x50: a one-byte write sets the offset, reads run on from it.
public final class EDIDEmulator: I2CDeviceEmulator {
    public let bytes: [UInt8]
    private var offset = 0

    public init(_ edid: EDID) {
        bytes = edid.encoded()
    }

    public func powerOnReset(at time: Double) { offset = 0 }

    public func receive(_ bytes: [UInt8], at time: Double) {
        if let first = bytes.first { offset = Int(first) }
    }

    public func transmit(count: Int, at time: Double) -> [UInt8] {
        (0..<count).map { _ in
            defer { offset = (offset + 1) % bytes.count }
            return bytes[offset % bytes.count]
        }
    }
}

extension DDCMonitorEmulator {
    /// The identity the emulated monitor gives in its EDID.
    public static let identity = EDID(
        manufacturer: "AMB", productCode: 0x0037, serialNumber: 1, monitorName: "Ambience DDC")

    /// A monitor on `bus`: DDC/CI at 0x37, its EDID at 0x50. Unplug both addresses to unplug it.
    @discardableResult
    public static func attach(to bus: MockI2CBus, maximum: UInt16 = 100, brightness: UInt16 = 50)
        -> DDCMonitorEmulator
    {
        let monitor = DDCMonitorEmulator(maximum: maximum, brightness: brightness)
        bus.attach(monitor, at: I2CAddress(rawValue: DDCCI.displayAddress))
        bus.attach(EDIDEmulator(identity), at: I2CAddress(rawValue: DDCCI.edidAddress))
        return monitor
    }
}
