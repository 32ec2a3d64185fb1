#if canImport(Glibc)
    import Glibc
#endif

/// Where the daemon tells its service manager how it is: injected, so that tests see what
/// systemd would be told.
public protocol ServiceNotifying: AnyObject {
    /// The watchdog interval the manager asked for, in seconds; nil when it asked for none.
    var watchdogInterval: Double? { get }
    /// Sends one notification, e.g. "READY=1\nSTATUS=regular"; never fails the caller.
    func notify(_ message: String)
}

/// systemd's notification protocol (sd_notify(3)): datagrams such as "READY=1" or "WATCHDOG=1"
/// to the socket named by $NOTIFY_SOCKET. Without that variable (not run by systemd) it does
/// nothing, so the daemon needs no libsystemd and runs the same by hand.
public final class ServiceNotifier: ServiceNotifying {
    private let socketAddress: sockaddr_un?
    private let addressLength: socklen_t
    private let socket: Int32

    /// The watchdog interval systemd asked for ($WATCHDOG_USEC), in seconds.
    public let watchdogInterval: Double?

    /// `processID` is getpid() but in tests.
    public init(
        environment: (String) -> String? = { getenv($0).map { String(cString: $0) } },
        processID: pid_t = getpid()
    ) {
        watchdogInterval = Self.watchdogInterval(environment: environment, processID: processID)
        guard let path = environment("NOTIFY_SOCKET"), path.count > 1, path.utf8.count < 108,
            path.hasPrefix("/") || path.hasPrefix("@")
        else {
            socketAddress = nil
            addressLength = 0
            socket = -1
            return
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }  // an abstract socket
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        socketAddress = address
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    deinit { if socket >= 0 { close(socket) } }

    /// As sd_watchdog_enabled(3) reads it: $WATCHDOG_USEC, a positive number of microseconds,
    /// and $WATCHDOG_PID, when set, this process: a child that inherited the variables (a
    /// program the daemon ran) is not the one systemd watches, and its pings would be refused.
    static func watchdogInterval(environment: (String) -> String?, processID: pid_t) -> Double? {
        guard let text = environment("WATCHDOG_USEC"), let microseconds = UInt64(text), microseconds > 0
        else { return nil }
        if let owner = environment("WATCHDOG_PID"), pid_t(owner) != processID { return nil }
        return Double(microseconds) / 1e6
    }

    public var isActive: Bool { socket >= 0 }

    /// Sends one notification, e.g. "READY=1\nSTATUS=regular". Failures are ignored: systemd
    /// going away must not take the daemon with it.
    public func notify(_ message: String) {
        guard var address = socketAddress, socket >= 0 else { return }
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                sendto(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL), target, addressLength)
            }
        }
    }
}
