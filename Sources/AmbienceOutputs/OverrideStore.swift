import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The persisted overrides (docs/guarantees.md §5.6: they survive restarts): one line in a small
/// file under the state directory, replaced atomically: `STATE` or `STATE until EPOCH-SECONDS`
/// for the theme, `PERCENT` or `PERCENT until EPOCH-SECONDS` for the backlight, in a file of its
/// own so that each is held and ended apart. The expiry is wall-clock time, the only clock that
/// means anything after a reboot.
public struct OverrideStore: Sendable {
    public static let defaultDirectory = "/var/lib/ambience"

    public let path: String
    /// Where the backlight's override lives.
    public let brightnessPath: String

    public init(directory: String = OverrideStore.defaultDirectory) {
        path = directory + "/override"
        brightnessPath = directory + "/brightness-override"
    }

    /// Records `command` as applied at `wallClockNow`; `auto` removes the record.
    public func save(_ command: Engine.OverrideCommand, wallClockNow: Double) throws(OutputError) {
        switch command {
        case .auto: try Self.remove(path)
        case .hold(let state, let duration):
            try Self.write(state.rawValue, duration: duration, wallClockNow: wallClockNow, to: path)
        }
    }

    /// The override to apply at start: the saved state for the time it has left; nil when
    /// there is none or it has expired. A file that cannot be understood is an error to log,
    /// after which the daemon starts without an override.
    public func restore(wallClockNow: Double) throws(OutputError) -> Engine.OverrideCommand? {
        guard let (word, remaining) = try Self.read(path, wallClockNow: wallClockNow, expected: "STATE")
        else { return nil }
        guard let state = AmbienceState(rawValue: word) else {
            throw Self.invalid(path, word, expected: "STATE")
        }
        return .hold(state, duration: remaining)
    }

    /// The backlight's override, as `save` keeps the theme's.
    public func saveBrightness(_ command: BrightnessEngine.Command, wallClockNow: Double) throws(OutputError)
    {
        switch command {
        case .auto: try Self.remove(brightnessPath)
        case .hold(let percent, let duration):
            try Self.write(
                String(percent), duration: duration, wallClockNow: wallClockNow, to: brightnessPath)
        }
    }

    /// The backlight's override to apply at start, as `restore` finds the theme's.
    public func restoreBrightness(wallClockNow: Double) throws(OutputError) -> BrightnessEngine.Command? {
        guard
            let (word, remaining) = try Self.read(
                brightnessPath, wallClockNow: wallClockNow, expected: "PERCENT")
        else { return nil }
        guard let percent = Int(word), (0...100).contains(percent) else {
            throw Self.invalid(brightnessPath, word, expected: "PERCENT")
        }
        return .hold(percent: percent, duration: remaining)
    }

    private static func remove(_ path: String) throws(OutputError) {
        do {
            try FileSystem.removeFile(path)
        } catch .noSuchFileOrDirectory {
            // No override held: nothing to forget.
        } catch {
            throw Files.failure("remove", path, error)
        }
    }

    private static func write(
        _ word: String, duration: Double?, wallClockNow: Double, to path: String
    ) throws(OutputError) {
        try Files.makeDirectories(Files.parent(of: path))
        let expiry = duration.map { " until " + String(wallClockNow + $0) } ?? ""
        try Files.persist { () throws(AtomicFile.Failure) in
            try AtomicFile.replace(path, with: word + expiry + "\n", mode: 0o644)
        }
    }

    /// The held word and the seconds it has left (nil: until `auto`); nil when there is no file
    /// or its end has passed.
    private static func read(
        _ path: String, wallClockNow: Double, expected: String
    ) throws(OutputError) -> (word: String, remaining: Double?)? {
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
        guard let first = words.first else { throw invalid(path, line, expected: expected) }
        switch words.count {
        case 1:
            return (String(first), nil)
        case 3 where words[1] == "until":
            guard let expiry = Double(words[2]), expiry.isFinite else {
                throw invalid(path, line, expected: expected)
            }
            // An end further away than any line may ask for (a file from before the bound, or a
            // clock set back) holds for the longest override rather than for ever.
            let remaining = min(expiry - wallClockNow, ControlLine.longestOverride)
            return remaining > 0 ? (String(first), remaining) : nil
        default:
            throw invalid(path, line, expected: expected)
        }
    }

    private static func invalid(_ path: String, _ text: String, expected: String) -> OutputError {
        .invalidContents(
            path: path,
            message: "'\(text)' is not an override: expected '\(expected)' or '\(expected) until SECONDS'")
    }
}
