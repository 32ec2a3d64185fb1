import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// Running another program and waiting for it: posix_spawn(3) and waitpid(2).
public enum Subprocess {
    public enum ExitStatus: Equatable, Sendable {
        /// It called exit with this code.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)

        /// From waitpid(2)'s status word (WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift
        /// does not import).
        init(waitStatus: Int32) {
            let signal = waitStatus & 0x7f
            self = signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signaled(signal)
        }

        /// The status a shell reports for it: the code, or 128 + the signal.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        }
    }

    /// Runs the program at `path` with `arguments` (the first being its name, as argv has it)
    /// and `environment` ("NAME=value" entries), and waits for it to end.
    public static func run(_ path: String, arguments: [String], environment: [String]) throws(Errno)
        -> ExitStatus
    {
        let process = try spawn(path, arguments: arguments, environment: environment)
        var exitStatus: Int32 = 0
        _ = try retryOnInterrupt { waitpid(process, &exitStatus, 0) }
        return ExitStatus(waitStatus: exitStatus)
    }

    /// Starts the program at `path` and returns its process id without waiting for it.
    /// `descriptors` maps descriptors of this process to the numbers the child sees them as
    /// (`[FileDescriptor(rawValue: 7): 3]`: the child's fd 3 is this process's fd 7); the child
    /// inherits them without close-on-exec, and no other descriptor that has close-on-exec set.
    /// A `path` without a slash is looked for in `$PATH`, as a shell does. With
    /// `newProcessGroup` the child leads a process group of its own, so that whatever it starts
    /// can be signalled with it (`signal(-process, …)`).
    public static func spawn(
        _ path: String, arguments: [String], environment: [String],
        descriptors: [(FileDescriptor, Int32)] = [], newProcessGroup: Bool = false
    ) throws(Errno) -> pid_t {
        // The child starts with no signal blocked and none ignored: a caller that blocks
        // signals to read them from a signalfd (or ignores SIGPIPE) must not pass that on.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        // Each source first moves above every target number, so that no dup2 overwrites a
        // source still to come, and none is a dup2 onto itself (which would keep close-on-exec).
        let lowest = (descriptors.map { $0.1 }.max() ?? 2) + 1
        var moved: [Int32] = []
        defer { for descriptor in moved { Glibc.close(descriptor) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in descriptors {
            let high = fcntl(source.rawValue, F_DUPFD_CLOEXEC, lowest)
            guard high >= 0 else { throw Errno.current }
            moved.append(high)
            posix_spawn_file_actions_adddup2(&actions, high, target)
        }
        var process = pid_t()
        let status = withCStringArray(arguments) { argv in
            withCStringArray(environment) { envp in
                path.contains("/")
                    ? posix_spawn(&process, path, &actions, &attributes, argv, envp)
                    : posix_spawnp(&process, path, &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else { throw Errno(rawValue: status) }
        return process
    }

    /// The status of a child that has ended, without waiting; nil while it runs.
    public static func reap(_ process: pid_t) throws(Errno) -> ExitStatus? {
        var exitStatus: Int32 = 0
        let reaped = try retryOnInterrupt { waitpid(process, &exitStatus, WNOHANG) }
        return reaped == 0 ? nil : ExitStatus(waitStatus: exitStatus)
    }

    /// Sends `signal` to `process`; a process already gone is no error.
    public static func signal(_ process: pid_t, _ signal: Int32) {
        _ = kill(process, signal)
    }

    /// Replaces this process with the program at `path` (execv(2)); returns only by throwing.
    public static func replaceProcess(with path: String, arguments: [String]) throws(Errno) -> Never {
        _ = withCStringArray(arguments) { argv in execv(path, argv) }
        throw Errno.current
    }

    /// A NULL-terminated C array of C strings, alive during `body`.
    private static func withCStringArray<R>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R {
        let copies = strings.map { strdup($0) } + [nil]
        defer { for copy in copies { free(copy) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// The process's environment as "NAME=value" entries, the form `Subprocess.run` takes.
public enum Environment {
    public static var current: [String] {
        var entries: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            entries.append(String(cString: pointer))
            entry = entry.successor()
        }
        return entries
    }

    /// The value of variable `name` among `entries`; nil when it is not set.
    public static func value(of name: String, in entries: [String] = current) -> String? {
        entries.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    /// `entries` with `variables` set: an entry of the same name is replaced, none is repeated.
    public static func setting(_ variables: KeyValuePairs<String, String>, in entries: [String]) -> [String] {
        let names = Set(variables.map { $0.key })
        return entries.filter { !names.contains(String($0.prefix { $0 != "=" })) }
            + variables.map { $0.key + "=" + $0.value }
    }
}
