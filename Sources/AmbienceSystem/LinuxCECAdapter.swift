import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// What became of a message handed to a CEC adapter, as the kernel reports it once the bus has
/// carried it (and the reply asked for has come, or not).
public struct CECOutcome: Equatable, Sendable {
    public enum Reply: Equatable, Sendable {
        /// No reply was asked for.
        case none
        /// The reply, header and opcode first.
        case received([UInt8])
        /// The destination acknowledged the message and never answered it.
        case timedOut
        /// The destination answered Feature Abort: it does not do that.
        case refused
    }

    /// The number `transmit` returned for the message.
    public var sequence: UInt32
    /// Whether the destination acknowledged the message.
    public var delivered: Bool
    /// Whether no device acknowledged it (none at that logical address).
    public var notAcknowledged: Bool
    public var reply: Reply

    public init(sequence: UInt32, delivered: Bool, notAcknowledged: Bool = false, reply: Reply = .none) {
        self.sequence = sequence
        self.delivered = delivered
        self.notAcknowledged = notAcknowledged
        self.reply = reply
    }
}

/// /dev/cecN through the kernel's CEC framework: vc4-hdmi on a Raspberry Pi, any HDMI port with
/// a CEC driver elsewhere. Opened non-blocking in the framework's default mode (initiator, not
/// follower): messages go out, their outcomes and replies come back, nothing else is received.
public final class LinuxCECAdapter {
    /// How long the framework waits for a reply, in milliseconds: CEC 1.4's own limit.
    static let replyTimeout: UInt32 = 1000

    public let path: String
    private var descriptor: FileDescriptor?

    public init(path: String) throws(Errno) {
        self.path = path
        descriptor = try FileDescriptor.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
    }

    deinit { close() }

    /// /dev/cecN.
    public static func path(ofAdapter number: Int) -> String { "/dev/cec\(number)" }

    /// The N of every /dev/cecN, in order.
    public static func availableAdapterNumbers() -> [Int] {
        let names = (try? FileSystem.entries(of: "/dev")) ?? []
        return names.compactMap { name in name.hasPrefix("cec") ? Int(name.dropFirst(3)) : nil }.sorted()
    }

    /// The adapter's name and its driver's, as the kernel gives them: "vc4-hdmi-0", "vc4_hdmi".
    public func identity() throws(Errno) -> (name: String, driver: String) {
        var capabilities = cec_caps()
        _ = try call { clinux_cec_capabilities($0, &capabilities) }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        return (text(capabilities.name), text(capabilities.driver))
    }

    /// Whether the adapter has a logical address or is claiming one.
    public func isConfigured() throws(Errno) -> Bool {
        try logicalAddresses().num_log_addrs > 0
    }

    public func physicalAddress() throws(Errno) -> UInt16 {
        var address: UInt16 = 0
        _ = try call { clinux_cec_physical_address($0, &address) }
        return address
    }

    public func logicalAddress() throws(Errno) -> UInt8? {
        let addresses = try logicalAddresses()
        guard addresses.log_addr_mask != 0, addresses.log_addr.0 != UInt8(CEC_LOG_ADDR_INVALID) else {
            return nil
        }
        return addresses.log_addr.0
    }

    /// Asks the framework to claim a Playback device's logical address, named `osdName` on the
    /// TV's source list, when no program has configured the adapter yet (on a Pi nothing does
    /// unless asked). The claim goes on in the background; the framework keeps it across
    /// hot-plug, claiming again whenever the TV gives the port its physical address back.
    /// Returns false when the adapter was configured already, or cannot be by a program.
    public func claimPlaybackAddress(osdName: String) throws(Errno) -> Bool {
        var capabilities = cec_caps()
        _ = try call { clinux_cec_capabilities($0, &capabilities) }
        guard capabilities.capabilities & UInt32(CEC_CAP_LOG_ADDRS) != 0 else { return false }
        guard try logicalAddresses().num_log_addrs == 0 else { return false }
        var request = cec_log_addrs()
        request.cec_version = UInt8(CEC_OP_CEC_VERSION_1_4)
        request.num_log_addrs = 1
        request.vendor_id = UInt32(CEC_VENDOR_ID_NONE)
        request.flags = UInt32(CEC_LOG_ADDRS_FL_ALLOW_UNREG_FALLBACK)
        request.primary_device_type.0 = UInt8(CEC_OP_PRIM_DEVTYPE_PLAYBACK)
        request.log_addr_type.0 = UInt8(CEC_LOG_ADDR_TYPE_PLAYBACK)
        request.all_device_types.0 = UInt8(CEC_OP_ALL_DEVTYPE_PLAYBACK)
        withUnsafeMutableBytes(of: &request.osd_name) { name in
            for (index, byte) in osdName.utf8.prefix(name.count - 1).enumerated() { name[index] = byte }
        }
        _ = try call { clinux_cec_claim_logical_addresses($0, &request) }
        return true
    }

    public func transmit(_ message: [UInt8], reply: UInt8?) throws(Errno) -> UInt32 {
        var request = cec_msg()
        request.len = UInt32(message.count)
        withUnsafeMutableBytes(of: &request.msg) { bytes in
            for (index, byte) in message.prefix(bytes.count).enumerated() { bytes[index] = byte }
        }
        if let reply {
            request.reply = reply
            request.timeout = Self.replyTimeout
        }
        _ = try call { clinux_cec_transmit($0, &request) }
        return request.sequence
    }

    public func receive() throws(Errno) -> CECOutcome? {
        var message = cec_msg()
        do throws(Errno) {
            _ = try call { clinux_cec_receive($0, &message) }
        } catch  where error == .wouldBlock {
            return nil
        }
        var outcome = CECOutcome(
            sequence: message.sequence, delivered: message.tx_status & UInt8(CEC_TX_STATUS_OK) != 0,
            notAcknowledged: message.tx_status & UInt8(CEC_TX_STATUS_NACK) != 0)
        // A Feature Abort is a reply received too: its flag comes with OK's.
        if message.rx_status & UInt8(CEC_RX_STATUS_FEATURE_ABORT) != 0 {
            outcome.reply = .refused
        } else if message.rx_status & UInt8(CEC_RX_STATUS_OK) != 0 {
            let length = Int(min(message.len, UInt32(CEC_MAX_MSG_SIZE)))
            outcome.reply = .received(withUnsafeBytes(of: message.msg) { Array($0.prefix(length)) })
        } else if message.rx_status & UInt8(CEC_RX_STATUS_TIMEOUT) != 0 {
            outcome.reply = .timedOut
        }
        return outcome
    }

    public func close() {
        descriptor?.close()
        descriptor = nil
    }

    private func logicalAddresses() throws(Errno) -> cec_log_addrs {
        var addresses = cec_log_addrs()
        _ = try call { clinux_cec_logical_addresses($0, &addresses) }
        return addresses
    }

    private func call(_ request: (Int32) -> Int32) throws(Errno) -> Int32 {
        guard let descriptor else { throw .badFileDescriptor }
        return try retryOnInterrupt { request(descriptor.rawValue) }
    }
}
