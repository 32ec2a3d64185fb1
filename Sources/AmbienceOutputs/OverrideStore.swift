import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The persisted override (docs/guarantees.md §5.6: it survives restarts): one line in a small file
/// under the state directory, `STATE` or `STATE until EPOCH-SECONDS`, replaced atomically.
/// The expiry is wall-clock time, the only clock that means anything after a reboot.
public struct OverrideStore: Sendable {
    public static let defaultDirectory = "/var/lib/ambience"

    public let path: String

    public init(directory: String = OverrideStore.defaultDirectory) {
        path = directory + "/override"
    }

    /// Records `command` as applied at `wallClockNow`; `auto` removes the record.
    public func save(_ command: Engine.OverrideCommand, wallClockNow: Double) throws(OutputError) {
        switch command {
        case .auto:
            do {
                try FileSystem.removeFile(path)
            } catch .noSuchFileOrDirectory {
                // No override held: nothing to forget.
            } catch {
                throw Files.failure("remove", path, error)
            }
        case .hold(let state, let duration):
            try Files.makeDirectories(Files.parent(of: path))
            let expiry = duration.map { " until " + String(wallClockNow + $0) } ?? ""
            try Files.replaceAtomically(
                path, with: state.rawValue + expiry + "\n", mode: 0o644, durable: true)
        }
    }

    /// The override to apply at start: the saved state for the time it has left; nil when
    /// there is none or it has expired. A file that cannot be understood is an error to log,
    /// after which the daemon starts without an override.
    public func restore(wallClockNow: Double) throws(OutputError) -> Engine.OverrideCommand? {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW)
        } catch .noSuchFileOrDirectory {
            return nil
        } catch {
            throw Files.failure("read", path, error)
        }
        defer { file.close() }
        var reader = LineReader(descriptor: file, chunkSize: 256)
        let line: String
        do {
            line = try reader.nextLine().map { String(decoding: $0, as: UTF8.self) } ?? ""
        } catch {
            throw Files.failure("read", path, error)
        }
        let words = line.split(separator: " ")
        let invalid = OutputError.invalidContents(
            path: path, message: "'\(line)' is not an override: expected 'STATE' or 'STATE until SECONDS'")
        guard let first = words.first, let state = AmbienceState(rawValue: String(first)) else {
            throw invalid
        }
        switch words.count {
        case 1:
            return .hold(state, duration: nil)
        case 3 where words[1] == "until":
            guard let expiry = Double(words[2]), expiry.isFinite else { throw invalid }
            // An end further away than any line may ask for (a file from before the bound, or a
            // clock set back) holds for the longest override rather than for ever.
            let remaining = min(expiry - wallClockNow, ControlLine.longestOverride)
            return remaining > 0 ? .hold(state, duration: remaining) : nil
        default:
            throw invalid
        }
    }
}
