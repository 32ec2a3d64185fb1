#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call's errno, typed, as swift-system has it.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno, right after a call reported failure.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let busy = Errno(rawValue: EBUSY)
    public static let noDevice = Errno(rawValue: ENXIO)
    public static let remoteIO = Errno(rawValue: EREMOTEIO)
    public static let ioError = Errno(rawValue: EIO)
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    public static let invalidArgument = Errno(rawValue: EINVAL)

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
