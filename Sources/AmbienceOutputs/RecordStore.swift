import AmbienceCore
import AmbienceRecord
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The persistent record of the light: the daemon's record rows appended to
/// `DIRECTORY/record.csv` in batches (one write and one fsync per batch, never one per sample:
/// an SD card wears with every write), the file moved to `record.csv.1` once it holds
/// `maximumBytes`, so the two never take more than twice that. The rows are in the compact
/// format (`CompactRecord`: about 1.3 MB a day at 10 Hz where CSV took 43 MB); the name stays,
/// every reader of traces reads both. Each file starts with the format's header, so each is a
/// trace for `replay` and `plot` on its own; a file in another format (an older version's CSV)
/// is moved aside the same way before the first rows of this one, rather than given rows its
/// header does not describe.
public final class RecordStore {
    public static let fileName = "record.csv"

    public let directory: String
    public let maximumBytes: Int64
    /// Batches written and their bytes, since this store was made.
    public private(set) var writes = 0
    public private(set) var bytesWritten: Int64 = 0
    /// Whether the file's format has been checked, once per store.
    private var formatChecked = false
    /// The rows' predictions so far; nil until the first write, after a failed one and after a
    /// rotation, when the next rows start a new stretch with the parameters line (which resets
    /// every prediction), after cutting whatever line a power cut or a full disk left torn.
    private var encoder: CompactRecord.Encoder?

    public init(directory: String, maximumBytes: Int64) {
        self.directory = directory
        self.maximumBytes = maximumBytes
    }

    public var path: String { directory + "/" + Self.fileName }
    public var previousPath: String { path + ".1" }

    /// Whether the file at `path` has bytes and begins with another header than this format's.
    private static func beginsOtherwise(_ path: String) -> Bool {
        let header = Array((CompactRecord.header + "\n").utf8)
        guard let start = try? FileSystem.prefix(of: path, count: header.count) else { return false }
        return !start.isEmpty && start != header
    }

    /// Appends the rows of `record` after the first `seen` it ever took (see
    /// `LightRecord.appended`), straight from the ring: no copy of the batch is made.
    /// `parameters` are the engine's filter and interval the rows were made with; a change
    /// starts a new stretch.
    public func append(
        from record: LightRecord, after seen: Int, parameters: CompactRecord.Parameters
    ) throws(OutputError) {
        let unseen = min(record.count, max(0, record.appended - seen))
        guard unseen > 0 else { return }
        try Files.makeDirectories(directory)
        let otherFormat = !formatChecked && Self.beginsOtherwise(path)
        formatChecked = true
        if let status = try? FileSystem.status(of: path), status.size >= maximumBytes || otherFormat {
            do {
                try FileSystem.rename(path, to: previousPath)
                try AtomicFile.syncDirectory(of: path)
            } catch {
                throw Files.failure("rotate", path, error)
            }
            encoder = nil
        }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW, mode: 0o644)
        } catch {
            throw Files.failure("open", path, error)
        }
        defer { file.close() }
        // A failure part of the way leaves the file and the predictions apart: start afresh.
        var written = encoder
        encoder = nil
        do throws(Errno) {
            if written == nil { try Self.cutTornLine(file) }
            let isNew = try file.status().size == 0
            var writer = BufferedWriter(descriptor: file, capacity: 1 << 14)
            var bytes = 0
            func write(_ text: String) throws(Errno) {
                bytes += text.utf8.count
                try writer.write(text)
            }
            if isNew { try write(CompactRecord.header + "\n") }
            if isNew || written?.parameters != parameters {
                // The ring's very first rows are where the daemon started: a new run.
                try write(parameters.line(startingRun: seen == 0))
                written = CompactRecord.Encoder(parameters: parameters)
            }
            guard var rows = written else { return }
            for index in record.count - unseen..<record.count {
                let text = rows.line(record.row(at: index))
                if !text.isEmpty { try write(text) }
            }
            try write(rows.finish())
            try writer.flush()
            try file.sync()
            encoder = rows
            writes += 1
            bytesWritten += Int64(bytes)
        } catch {
            throw Files.failure("write", path, error)
        }
    }

    /// Cuts a last line without its newline (a write a power cut or a full disk stopped part of
    /// the way), so the record reads up to the row before it and the next line starts clean.
    private static func cutTornLine(_ file: FileDescriptor) throws(Errno) {
        var end = try file.status().size
        var chunk = [UInt8](repeating: 0, count: 4096)
        var lastByte = true
        while end > 0 {
            let start = max(0, end - Int64(chunk.count))
            let count = Int(end - start)
            let got = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in
                    try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]), at: start)
                }
            }.get()
            guard got == count else { throw Errno(rawValue: EIO) }
            if let newline = chunk[..<count].lastIndex(of: UInt8(ascii: "\n")) {
                if !(lastByte && newline == count - 1) { try file.truncate(to: start + Int64(newline) + 1) }
                return
            }
            lastByte = false
            end = start
        }
        try file.truncate(to: 0)
    }
}
