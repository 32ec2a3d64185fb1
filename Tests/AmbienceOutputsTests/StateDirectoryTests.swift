import AmbienceSystem
import AmbienceTestSupport
import Testing

@testable import AmbienceOutputs

#if canImport(Glibc)
    import Glibc
#endif

/// A state directory that cannot be written costs the persistence, said once, never the daemon.
@Suite struct StateDirectoryTests {
    let directory = TemporaryDirectory()

    @Test func aWritableDirectoryIsKeptAndMadeWhenMissing() {
        let log = LogRecorder()
        let state = StateDirectory(log: log.log, mountInfo: { Self.ext4Root })
        let configured = directory.file("var/lib/ambience")
        #expect(state.path(configured: configured, fallback: directory.file("run/lib")) == configured)
        #expect((try? FileSystem.status(of: configured))?.isDirectory == true)
        #expect(log.messages.isEmpty)
    }

    /// A file where the directory should be: what root cannot write past either.
    @Test func aFileInPlaceOfTheDirectoryFallsBackToRAMSaidOnce() throws {
        let log = LogRecorder()
        let state = StateDirectory(log: log.log)
        let configured = directory.file("lib")
        let file = try FileDescriptor.open(configured, O_WRONLY | O_CREAT)
        file.close()
        let fallback = directory.file("run/lib")
        for _ in 0..<3 {
            #expect(state.path(configured: configured, fallback: fallback) == fallback)
        }
        #expect(log.messages.count == 1, "\(log.messages)")
        let message = log.messages.first ?? ""
        #expect(message.hasPrefix("cannot use as a directory \(configured): "), "\(message)")
        #expect(message.contains("kept in \(fallback) instead, in RAM"), "\(message)")
        #expect(message.contains("will not outlast a reboot"), "\(message)")
    }

    @Test func aReadOnlyFileSystemFallsBackToRAM() {
        let log = LogRecorder()
        let state = StateDirectory(log: log.log) { path throws(OutputError) in
            throw .system(operation: "write in", path: path, Errno(rawValue: EROFS))
        }
        #expect(
            state.path(configured: "/var/lib/ambience", fallback: "/run/ambience/lib") == "/run/ambience/lib")
        #expect(
            log.messages.first?.hasPrefix("cannot write in /var/lib/ambience: Read-only file system: ")
                == true,
            "\(log.messages)")
        // Another configured directory (a reload) is probed on its own.
        #expect(state.path(configured: "/srv/ambience", fallback: "/run/ambience/lib") == "/run/ambience/lib")
        #expect(log.messages.count == 2)
    }

    @Test func theFallbackIsBesideTheControlPipe() {
        #expect(StateDirectory.fallback(forControl: "/run/ambience/control") == "/run/ambience/lib")
    }

    static let ext4Root = """
        22 27 0:21 / /proc rw,relatime - proc proc rw
        27 1 179:2 / / rw,noatime - ext4 /dev/mmcblk0p2 rw
        30 27 0:25 / /run rw,nosuid,nodev - tmpfs tmpfs rw,size=187176k,mode=755

        """
    /// Raspberry Pi OS with its overlay file system on (overlayroot): the card read-only below,
    /// the changes in a tmpfs.
    static let piOverlay = """
        20 1 0:19 / /media/root-ro ro,relatime - ext4 /dev/mmcblk0p2 ro
        21 1 0:20 / /media/root-rw rw,relatime - tmpfs tmpfs-root rw
        22 1 0:21 / / rw,relatime - overlay overlayroot rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir
        30 22 0:25 / /run rw,nosuid,nodev - tmpfs tmpfs rw,size=187176k,mode=755

        """

    @Test func ramIsToldFromTheMounts() {
        #expect(StateDirectory.volatility(of: "/var/lib/ambience", mountInfo: Self.ext4Root) == nil)
        #expect(
            StateDirectory.volatility(of: "/run/ambience/lib", mountInfo: Self.ext4Root) == "tmpfs at /run")
        #expect(StateDirectory.volatility(of: "/runaway", mountInfo: Self.ext4Root) == nil, "not under /run")
        #expect(
            StateDirectory.volatility(of: "/var/lib/ambience", mountInfo: Self.piOverlay)
                == "an overlay at / whose changes go to tmpfs at /media/root-rw")
        // An overlay whose changes go to the card lasts (a container's root, say).
        let lasting = Self.piOverlay.split(separator: "\n").map {
            $0.contains("root-rw rw")
                ? "21 1 8:1 / /media/root-rw rw,relatime - ext4 /dev/sda1 rw" : String($0)
        }.joined(separator: "\n")
        #expect(StateDirectory.volatility(of: "/var/lib/ambience", mountInfo: lasting) == nil)
        // The last mount at a point is the one seen; mount points come escaped.
        let shadowed =
            Self.ext4Root + "40 27 0:30 / /var/lib/my\\040state rw - tmpfs tmpfs rw\n"
            + "41 40 8:1 / /var/lib/my\\040state rw - ext4 /dev/sda1 rw\n"
        #expect(StateDirectory.volatility(of: "/var/lib/my state", mountInfo: shadowed) == nil)
        #expect(
            StateDirectory.volatility(
                of: "/var/lib/my state",
                mountInfo: Self.ext4Root + "40 27 0:30 / /var/lib/my\\040state rw - tmpfs tmpfs rw\n")
                == "tmpfs at /var/lib/my state")
    }

    /// Raspberry Pi OS's overlay file system: the directory can be written, into RAM; it is kept,
    /// and said once.
    @Test func anOverlayInRAMIsKeptAndSaidOnce() {
        let log = LogRecorder()
        let state = StateDirectory(
            log: log.log, probe: { _ throws(OutputError) in }, mountInfo: { Self.piOverlay })
        for _ in 0..<3 {
            #expect(
                state.path(configured: "/var/lib/ambience", fallback: "/run/ambience/lib")
                    == "/var/lib/ambience")
        }
        #expect(
            log.messages == [
                "/var/lib/ambience is in RAM (an overlay at / whose changes go to tmpfs at /media/root-rw):"
                    + " the overrides and the record are kept there and will not outlast a reboot"
            ])
    }
}
