import AmbienceClient
import AmbienceCore
import AmbienceRecord
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The control pipe (docs/guarantees.md §5.5): `override STATE [for DURATION]` and `override auto`
/// lines from `ambience override` or anyone allowed to write. Read without blocking on the
/// daemon's tick; `descriptor` can also join the loop's poll(2) so an override acts at once.
public final class ControlPipe {
    public static let defaultPath = RuntimePaths.controlPipe
    /// Only the daemon's own user (and root) may override: readers of the theme may not.
    public static let defaultMode: mode_t = 0o600
    /// Longer lines are not commands; they are dropped rather than buffered without end.
    static let maximumLineLength = 1024

    public enum Input: Equatable, Sendable {
        case command(Engine.OverrideCommand)
        /// `brightness PERCENT [for DURATION]` or `brightness auto`.
        case brightness(BrightnessEngine.Command)
        /// `display on|off [for DURATION]` or `display auto`.
        case display(DisplaySleepEngine.Command)
        /// `whitepoint KELVIN [for DURATION]` or `whitepoint auto`.
        case whitePoint(WhitePointEngine.Command)
        /// `record`: write the record of the light to `RuntimePaths.record(forControl:)`.
        case record
        /// `outputs on|off`: `ambience kiosk` saying what the Wayland session's outputs are.
        case outputs(DisplayPower)
        /// A line that is not a command, with why, for the daemon to log. Nothing else changes.
        case rejected(line: String, reason: String)
    }

    public let path: String
    private let mode: mode_t
    private let groupID: gid_t?
    private var reader: FileDescriptor?
    /// Our own write end: without it the read end sees end-of-file each time a writer closes,
    /// and a poll(2) on it would spin until the next writer.
    private var keepAlive: FileDescriptor?
    private var partial: [UInt8] = []
    private var discardingLongLine = false
    private var report: FaultReport

    /// Creates the pipe if needed, with `mode` and `group` (see `Files.prepareFIFO`), and opens it.
    public init(
        path: String = ControlPipe.defaultPath, mode: mode_t = ControlPipe.defaultMode, group: String? = nil,
        log: @escaping OutputLog
    ) throws(OutputError) {
        self.path = path
        self.mode = mode
        report = FaultReport(log: log)
        groupID = try group.map { name throws(OutputError) in try Files.groupID(name) }
        try Files.prepareFIFO(path, mode: mode, group: group)
        do {
            reader = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
            keepAlive = try FileDescriptor.open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW)
        } catch {
            close()
            throw Files.failure("open", path, error)
        }
    }

    deinit { close() }

    /// The read end, readable when input is waiting.
    public var descriptor: FileDescriptor? { reader }

    /// Everything written since the last call, in order; never waits.
    public func read() -> [Input] {
        guard let reader else { return [] }
        var inputs: [Input] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try reader.read(into: bytes) }
            }
            switch result {
            case .success(let count) where count > 0:
                split(buffer[..<count], into: &inputs)
                continue
            case .success, .failure(.wouldBlock):
                report.succeeded("\(path): reading again")
            case .failure(let error):
                report.failed("\(path): cannot read: \(error)")
            }
            return inputs
        }
    }

    public func close() {
        reader?.close()
        keepAlive?.close()
        reader = nil
        keepAlive = nil
    }

    private func split(_ bytes: ArraySlice<UInt8>, into inputs: inout [Input]) {
        for byte in bytes {
            if byte != UInt8(ascii: "\n") {
                if partial.count < Self.maximumLineLength {
                    partial.append(byte)
                } else if !discardingLongLine {
                    discardingLongLine = true
                    let start = String(decoding: partial.prefix(40), as: UTF8.self)
                    inputs.append(
                        .rejected(
                            line: start + "…", reason: "line longer than \(Self.maximumLineLength) bytes"))
                }
                continue
            }
            defer {
                partial.removeAll(keepingCapacity: true)
                discardingLongLine = false
            }
            guard !discardingLongLine else { continue }
            let line = String(decoding: partial, as: UTF8.self)
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            do {
                switch try ControlLine.request(line) {
                case .override(let command): inputs.append(.command(command))
                case .brightness(let command): inputs.append(.brightness(command))
                case .display(let command): inputs.append(.display(command))
                case .whitePoint(let command): inputs.append(.whitePoint(command))
                case .record: inputs.append(.record)
                case .outputs(let power): inputs.append(.outputs(power))
                }
            } catch {
                inputs.append(.rejected(line: line, reason: error.message))
            }
        }
    }
}

extension ControlPipe {
    /// Answers `record`: writes the rows to `RuntimePaths.record(forControl:)` under a temporary name, then renames it
    /// over, so `ambience record` never copies half a file. Readable by whoever may write the
    /// control pipe (its owner, and its group or others when they may write it), in its group.
    /// Streams through a small buffer: a full ring is about a megabyte of text, which the
    /// daemon never holds at once.
    public func writeRecord(_ record: LightRecord) throws(OutputError) {
        let destination = RuntimePaths.record(forControl: path)
        var fileMode: mode_t = 0o600
        if mode & 0o060 != 0 { fileMode |= 0o040 }
        if mode & 0o006 != 0 { fileMode |= 0o004 }
        try Files.persist { () throws(AtomicFile.Failure) in
            try AtomicFile.replace(destination, mode: fileMode, group: groupID) { file throws(Errno) in
                var writer = BufferedWriter(descriptor: file, capacity: 1 << 14)
                try writer.write(LightRecord.header + "\n")
                for index in 0..<record.count { try writer.write(LightRecord.line(record.row(at: index))) }
                try writer.flush()
            }
        }
    }
}
