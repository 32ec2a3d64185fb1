import AmbienceClient
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Where the daemon keeps what should outlast it (the overrides, the persistent record): the
/// configured state directory when it can be written, else a directory in RAM. A read-only root
/// (a `/var/lib/ambience` on a file system mounted read-only, or one that is not a directory)
/// costs the persistence, said once, never the daemon.
public final class StateDirectory {
    /// Throws when files cannot be made in the directory, making it first if it is missing.
    public typealias Probe = (String) throws(OutputError) -> Void

    private let probe: Probe
    private let mountInfo: () -> String?
    private let log: OutputLog
    /// The directory taken for each configured one: probed once, so that a read-only root is
    /// one warning, not one per override.
    private var chosen: [String: String] = [:]

    /// `log` takes the one warning; `probe` is `canWrite` and `mountInfo` the text of
    /// /proc/self/mountinfo but in tests.
    public init(
        log: @escaping OutputLog, probe: @escaping Probe = StateDirectory.canWrite,
        mountInfo: @escaping () -> String? = {
            (try? FileSystem.contents(of: "/proc/self/mountinfo")).map { String(decoding: $0, as: UTF8.self) }
        }
    ) {
        self.log = log
        self.probe = probe
        self.mountInfo = mountInfo
    }

    /// `configured` if it can be written, else `fallback` (a directory in RAM), with a warning
    /// the first time.
    public func path(configured: String, fallback: String) -> String {
        if let path = chosen[configured] { return path }
        var path = configured
        do {
            try probe(configured)
            if let text = mountInfo(), let why = Self.volatility(of: configured, mountInfo: text) {
                log(
                    "\(configured) is in RAM (\(why)): the overrides and the record are kept there and"
                        + " will not outlast a reboot")
            }
        } catch {
            path = fallback
            log(
                "\(error): the overrides and the record are kept in \(fallback) instead, in RAM:"
                    + " they will not outlast a reboot, nor a restart of the daemon")
        }
        chosen[configured] = path
        return path
    }

    /// The directory in RAM: `lib` beside the control pipe (/run/ambience/lib as shipped), in the
    /// daemon's own runtime directory, which it can write (or it would have no control pipe).
    public static func fallback(forControl path: String) -> String { RuntimePaths.parent(of: path) + "/lib" }

    /// Makes the directory if it is missing and asks whether files can be made in it, without
    /// writing one (an SD card wears with every write): access(2) answers EROFS for a read-only
    /// file system, to root too.
    public static func canWrite(_ directory: String) throws(OutputError) {
        try Files.makeDirectories(directory)
        do {
            _ = try retryOnInterrupt { access(directory, W_OK | X_OK) }
        } catch {
            throw .system(operation: "write in", path: directory, error)
        }
    }

    /// Why files written in `directory` would not outlast a reboot, from the text of
    /// /proc/self/mountinfo: its file system is a tmpfs or ramfs, or an overlay whose changes go
    /// to one (Raspberry Pi OS's overlay file system); nil when it lasts, or cannot be told.
    public static func volatility(of directory: String, mountInfo: String) -> String? {
        let mounts = mountInfo.split(separator: "\n").compactMap(Mount.init)
        guard let mount = Mount.containing(directory, in: mounts) else { return nil }
        if Mount.inRAM.contains(mount.type) { return "\(mount.type) at \(mount.point)" }
        guard mount.type == "overlay",
            let upper = mount.superOptions.split(separator: ",").first(where: { $0.hasPrefix("upperdir=") }),
            let below = Mount.containing(String(upper.dropFirst("upperdir=".count)), in: mounts),
            Mount.inRAM.contains(below.type)
        else { return nil }
        return "an overlay at \(mount.point) whose changes go to \(below.type) at \(below.point)"
    }

    /// One line of /proc/self/mountinfo (proc(5)): the mount point, the file system type and
    /// its options.
    struct Mount {
        static let inRAM: Set<String> = ["tmpfs", "ramfs"]

        var point: String
        var type: String
        var superOptions: String

        init?(_ line: Substring) {
            let fields = line.split(separator: " ")
            guard fields.count >= 10, let separator = fields.dropFirst(6).firstIndex(of: "-"),
                separator + 3 < fields.count
            else { return nil }
            point = Self.unescaped(fields[4])
            type = String(fields[separator + 1])
            superOptions = Self.unescaped(fields[separator + 3])
        }

        /// The mount `path` is on: the longest mount point above it, the last mounted of equals.
        static func containing(_ path: String, in mounts: [Mount]) -> Mount? {
            guard path.hasPrefix("/") else { return nil }
            let above = mounts.enumerated().filter { _, mount in
                mount.point == "/" || path == mount.point || path.hasPrefix(mount.point + "/")
            }
            return above.max { ($0.element.point.count, $0.offset) < ($1.element.point.count, $1.offset) }?
                .element
        }

        /// The kernel writes space, tab, newline and backslash as octal escapes (\040 …).
        static func unescaped(_ field: Substring) -> String {
            var bytes: [UInt8] = []
            var rest = Array(field.utf8)[...]
            while let byte = rest.popFirst() {
                if byte == UInt8(ascii: "\\"), rest.count >= 3,
                    let code = UInt8(String(decoding: rest.prefix(3), as: UTF8.self), radix: 8)
                {
                    bytes.append(code)
                    rest = rest.dropFirst(3)
                } else {
                    bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
