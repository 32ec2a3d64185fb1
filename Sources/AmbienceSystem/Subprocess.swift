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
    }

    /// Runs the program at `path` with `arguments` (the first being its name, as argv has it)
    /// and `environment` ("NAME=value" entries), and waits for it to end.
    public static func run(_ path: String, arguments: [String], environment: [String]) throws(Errno)
        -> ExitStatus
    {
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
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var process = pid_t()
        let status = withCStringArray(arguments) { argv in
            withCStringArray(environment) { envp in posix_spawn(&process, path, nil, &attributes, argv, envp)
            }
        }
        guard status == 0 else { throw Errno(rawValue: status) }
        var exitStatus: Int32 = 0
        _ = try retryOnInterrupt { waitpid(process, &exitStatus, 0) }
        // WIFEXITED/WEXITSTATUS/WTERMSIG are macros Swift does not import.
        let signal = exitStatus & 0x7f
        return signal == 0 ? .exited((exitStatus >> 8) & 0xff) : .signaled(signal)
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

    /// `entries` with `variables` set: an entry of the same name is replaced, none is repeated.
    public static func setting(_ variables: KeyValuePairs<String, String>, in entries: [String]) -> [String] {
        let names = Set(variables.map(\.key))
        return entries.filter { !names.contains(String($0.prefix { $0 != "=" })) }
            + variables.map { $0.key + "=" + $0.value }
    }
}
