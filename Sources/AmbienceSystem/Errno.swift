#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call's errno, typed, as swift-system has it.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno, right after a call reported failure.
    public static var current: Errno { Errno(rawValue: errno) }

    // Named as swift-system names them, so code reads the same with either.
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let noSuchProcess = Errno(rawValue: ESRCH)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let ioError = Errno(rawValue: EIO)
    public static let noSuchAddressOrDevice = Errno(rawValue: ENXIO)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let noChildProcess = Errno(rawValue: ECHILD)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let resourceBusy = Errno(rawValue: EBUSY)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let operationNotSupportedByDevice = Errno(rawValue: ENODEV)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
    public static let wouldBlock = resourceTemporarilyUnavailable
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
    /// ENOTSUP and EOPNOTSUPP, the same number on Linux.
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    /// Linux only, so swift-system has no name for it: the I2C chip did not acknowledge.
    public static let remoteIO = Errno(rawValue: EREMOTEIO)
    /// Linux only: a CEC adapter has no logical address (nothing plugged in, or the TV pulled
    /// hot-plug low) and may not send that message.
    public static let notOnNetwork = Errno(rawValue: ENONET)

    public var description: String { String(cString: strerror(rawValue)) }
}

/// Runs a system call wrapper until it stops failing with EINTR; a signal is not an error.
@inline(__always)
public func retryOnInterrupt<T: BinaryInteger>(_ call: () -> T) throws(Errno) -> T {
    while true {
        let result = call()
        if result >= 0 { return result }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}
