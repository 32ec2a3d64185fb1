import AmbienceConfig
import AmbienceDaemon
import AmbienceSystem

/// Files held in memory: the configuration, board profiles, and paths that fail to read.
struct MemoryFiles: ConfigurationFiles {
    var files: [String: String]
    var unreadable: Set<String> = []

    func contents(of path: String) throws(Errno) -> [UInt8] {
        if unreadable.contains(path) { throw Errno.permissionDenied }
        guard let text = files[path] else { throw Errno.noSuchFileOrDirectory }
        return Array(text.utf8)
    }

    func names(in directory: String) -> [String] {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
            .filter { !$0.contains("/") }
    }
}

enum Fixture {
    static let path = "/etc/ambience/ambience.toml"
    static let boards = "/boards"

    /// Loads `text` as the configuration, with `boards` (name → text) in /boards.
    static func load(_ text: String, boards: [String: String] = [:]) throws(ConfigFileErrors)
        -> DaemonConfiguration
    {
        var files = [path: text]
        for (name, board) in boards { files["\(Self.boards)/\(name).toml"] = board }
        return try DaemonConfiguration.load(
            from: path, boardDirectories: [Self.boards], files: MemoryFiles(files: files))
    }

    /// Every error that loading `text` gives, as the user reads them.
    static func errors(_ text: String, boards: [String: String] = [:]) -> [String] {
        do {
            _ = try load(text, boards: boards)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    /// The smallest valid configuration, followed by `more`.
    static func minimal(_ more: String = "") -> String {
        "[sensor]\nkind = \"bh1750\"\n" + more
    }
}
