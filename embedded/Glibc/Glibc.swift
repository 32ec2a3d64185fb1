// The module `import Glibc` finds in an Embedded Swift build, where the toolchain has no Glibc
// overlay: Glibc's headers as Clang imports them, and the few overlay declarations the sources
// use, with the overlay's names and types, so that the same sources build both ways.
@_exported import CGlibc

public var errno: Int32 {
    get { cglibc_errno().pointee }
    set { cglibc_errno().pointee = newValue }
}

public var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { cglibc_environ() }

public var SIG_IGN: __sighandler_t? { cglibc_sig_ign() }
public var SIG_DFL: __sighandler_t? { cglibc_sig_dfl() }

public var S_IFMT: mode_t { mode_t(CGlibc.S_IFMT) }
public var S_IFIFO: mode_t { mode_t(CGlibc.S_IFIFO) }
public var S_IFDIR: mode_t { mode_t(CGlibc.S_IFDIR) }
public var S_IFREG: mode_t { mode_t(CGlibc.S_IFREG) }
public var S_IFCHR: mode_t { mode_t(CGlibc.S_IFCHR) }
public var S_IFBLK: mode_t { mode_t(CGlibc.S_IFBLK) }
public var S_IFLNK: mode_t { mode_t(CGlibc.S_IFLNK) }
public var S_IFSOCK: mode_t { mode_t(CGlibc.S_IFSOCK) }

public func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    cglibc_open(path, flags, mode)
}

public func open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { cglibc_open(path, flags, 0) }

public func fcntl(_ fd: Int32, _ command: Int32) -> Int32 { cglibc_fcntl(fd, command, 0) }

public func fcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 { cglibc_fcntl(fd, command, value) }

public func ioctl(_ fd: Int32, _ request: UInt, _ value: Int32) -> Int32 { cglibc_ioctl_value(fd, request, value) }

public func ioctl(_ fd: Int32, _ request: UInt, _ pointer: UnsafeMutableRawPointer) -> Int32 {
    cglibc_ioctl_pointer(fd, request, pointer)
}
