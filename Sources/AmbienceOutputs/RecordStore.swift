import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The persistent record of the light: the daemon's record rows appended to
/// `DIRECTORY/record.csv` in batches (one write and one fsync per batch, never one per sample:
/// an SD card wears with every write), the file moved to `record.csv.1` once it holds
/// `maximumBytes`, so the two never take more than twice that. Each file starts with the
/// record's header, so each is a trace for `replay` and `plot` on its own; a file an older
/// version began with other columns is moved aside the same way before the first rows of this
/// one, rather than given rows its header does not describe.
public final class RecordStore {
    public static let fileName = "record.csv"

    public let directory: String
    public let maximumBytes: Int64
    /// Batches written and their bytes, since this store was made.
    public private(set) var writes = 0
    public private(set) var bytesWritten: Int64 = 0
    /// Whether the file's header has been compared with this version's, once per store.
    private var headerChecked = false

    public init(directory: String, maximumBytes: Int64) {
        self.directory = directory
        self.maximumBytes = maximumBytes
    }

    public var path: String { directory + "/" + Self.fileName }
    public var previousPath: String { path + ".1" }

    /// Whether the file at `path` has rows and begins with another header than this version's.
    private static func beginsOtherwise(_ path: String) -> Bool {
        let header = Array((LightRecord.header + "\n").utf8)
        guard let start = try? FileSystem.prefix(of: path, count: header.count) else { return false }
        return !start.isEmpty && start != header
    }

    /// Appends the rows of `record` after the first `seen` it ever took (see
    /// `LightRecord.appended`), straight from the ring: no copy of the batch is made.
    public func append(from record: LightRecord, after seen: Int) throws(OutputError) {
        let unseen = min(record.count, max(0, record.appended - seen))
        guard unseen > 0 else { return }
        try Files.makeDirectories(directory)
        let olderFormat = !headerChecked && Self.beginsOtherwise(path)
        headerChecked = true
        if let status = try? FileSystem.status(of: path), status.size >= maximumBytes || olderFormat {
            do {
                try FileSystem.rename(path, to: previousPath)
                try AtomicFile.syncDirectory(of: path)
            } catch {
                throw Files.failure("rotate", path, error)
            }
        }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, mode: 0o644)
        } catch {
            throw Files.failure("open", path, error)
        }
        defer { file.close() }
        do throws(Errno) {
            let isNew = try file.status().size == 0
            var writer = BufferedWriter(descriptor: file, capacity: 1 << 14)
            var bytes = 0
            func write(_ text: String) throws(Errno) {
                bytes += text.utf8.count
                try writer.write(text)
            }
            if isNew { try write(LightRecord.header + "\n") }
            for index in record.count - unseen..<record.count {
                try write(LightRecord.line(record.row(at: index)))
            }
            try writer.flush()
            try file.sync()
            writes += 1
            bytesWritten += Int64(bytes)
        } catch {
            throw Files.failure("write", path, error)
        }
    }
}
