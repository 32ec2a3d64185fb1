import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The persisted overrides (docs/guarantees.md §5.6: they survive restarts): one line in a small
/// file under the state directory, replaced atomically: `STATE` or `STATE until EPOCH-SECONDS`
/// for the theme, `PERCENT` or `PERCENT until EPOCH-SECONDS` for the backlight, `on` or `off`
/// (and its end) for the display's sleep, each in a file of its own so that each is held and
/// ended apart. The expiry is wall-clock time, the only clock that
/// means anything after a reboot.
public struct OverrideStore: Sendable {
    public static let defaultDirectory = "/var/lib/ambience"

    /// Where every kind's file is; a kind declared beside its output names its file in it.
    public let directory: String

    /// Where the theme's override lives.
    public let path: String
    /// Where the backlight's override lives.
    public let brightnessPath: String
    /// Where the display sleep's override lives.
    public let displayPath: String
    /// Where a stop notes that it woke a sleeping display.
    public let displayAtStopPath: String

    public init(directory: String = OverrideStore.defaultDirectory) {
        self.directory = directory
        path = directory + "/override"
        brightnessPath = directory + "/brightness-override"
        displayPath = directory + "/display-override"
        displayAtStopPath = directory + "/display-asleep-at-stop"
    }

    /// Records `command` as applied at `wallClockNow`; `auto` removes the record.
    public func save<Command: PersistedOverride>(_ command: Command, wallClockNow: Double) throws(OutputError)
    {
        let path = Command.path(in: self)
        if let held = command.held {
            try Self.write(held.word, duration: held.duration, wallClockNow: wallClockNow, to: path)
        } else {
            try Self.remove(path)
        }
    }

    /// The override of `kind` to apply at start, for the time it has left; nil when there is
    /// none or it has expired. A file that cannot be understood is an error to log, after which
    /// the daemon starts without that override.
    public func restore<Command: PersistedOverride>(
        _ kind: Command.Type, wallClockNow: Double
    ) throws(OutputError) -> Command? {
        let path = Command.path(in: self)
        guard let (word, remaining) = try Self.read(path, wallClockNow: wallClockNow, expected: Command.word)
        else { return nil }
        guard let command = Command(holding: word, for: remaining) else {
            throw Self.invalid(path, word, expected: Command.word)
        }
        return command
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

/// An override the store keeps, each kind in a file of its own.
public protocol PersistedOverride {
    /// The file this kind is kept in.
    static func path(in store: OverrideStore) -> String
    /// What the file's word stands for (`STATE`), for the message that a file's is not one.
    static var word: String { get }
    /// The word held and for how long (nil: until `auto`); nil for `auto` itself, which holds nothing.
    var held: (word: String, duration: Double?)? { get }
    /// `word` held for `remaining` seconds (nil: until `auto`); nil when `word` is not one of this kind's.
    init?(holding word: String, for remaining: Double?)
}

extension Engine.OverrideCommand: PersistedOverride {
    public static func path(in store: OverrideStore) -> String { store.path }
    public static var word: String { "STATE" }

    public var held: (word: String, duration: Double?)? {
        switch self {
        case .hold(let state, let duration): (state.rawValue, duration)
        case .auto: nil
        }
    }

    public init?(holding word: String, for remaining: Double?) {
        guard let state = AmbienceState(rawValue: word) else { return nil }
        self = .hold(state, duration: remaining)
    }
}

extension BrightnessEngine.Command: PersistedOverride {
    public static func path(in store: OverrideStore) -> String { store.brightnessPath }
    public static var word: String { "PERCENT" }

    public var held: (word: String, duration: Double?)? {
        switch self {
        case .hold(let percent, let duration): (String(percent), duration)
        case .auto: nil
        }
    }

    public init?(holding word: String, for remaining: Double?) {
        guard let percent = Int(word), (0...100).contains(percent) else { return nil }
        self = .hold(percent: percent, duration: remaining)
    }
}

extension DisplaySleepEngine.Command: PersistedOverride {
    public static func path(in store: OverrideStore) -> String { store.displayPath }
    public static var word: String { "on|off" }

    public var held: (word: String, duration: Double?)? {
        switch self {
        case .hold(let power, let duration): (power.rawValue, duration)
        case .auto: nil
        }
    }

    public init?(holding word: String, for remaining: Double?) {
        guard let power = DisplayPower(rawValue: word) else { return nil }
        self = .hold(power, duration: remaining)
    }
}

/// A display the daemon had asleep when it stopped. The stop wakes it, since nothing else would;
/// a start within `window` (a restart, an upgrade, a quick reboot) finds this note and puts it
/// back to sleep at once rather than `sleep_after` later. Kept as an override is, with its end.
public enum DisplayAsleepAtStop: PersistedOverride {
    /// How long after the stop the note holds.
    public static let window = 120.0

    /// Asleep at the stop; `remaining` of the window left when read.
    case noted(remaining: Double?)
    /// Taken up by a start, or never written.
    case cleared

    public static func path(in store: OverrideStore) -> String { store.displayAtStopPath }
    public static var word: String { "off" }

    public var held: (word: String, duration: Double?)? {
        switch self {
        case .noted: ("off", Self.window)
        case .cleared: nil
        }
    }

    public init?(holding word: String, for remaining: Double?) {
        guard word == "off" else { return nil }
        self = .noted(remaining: remaining)
    }
}
