import AmbienceSystem
import TOML

/// A configuration file as the programs read it: its TOML, and beneath it the board profile it
/// names (`board = "raspberry-pi-4"`), each key taken from the first layer that sets it.
public enum ConfigurationSource {
    /// Where every program looks for configuration by default.
    public static let defaultPath = "/etc/ambience/ambience.toml"

    /// Where board profiles are looked for: `$AMBIENCE_BOARDS` (a colon-separated list) first,
    /// then the locally installed profiles, then the packaged ones.
    public static func boardDirectories(environment value: String?) -> [String] {
        let fromEnvironment = (value ?? "").split(separator: ":").map(String.init)
        return fromEnvironment + ["/usr/local/share/ambience/boards", "/usr/share/ambience/boards"]
    }

    /// The file at `path` and the board profile it names, from the first of `boardDirectories`
    /// that has it. A fault of the board (unknown, unreadable, naming another board) goes into
    /// `decoder`; a file that cannot be read or parsed at all is thrown.
    public static func layers(
        of path: String, boardDirectories: [String], files: some ConfigurationFiles,
        decoder: inout ConfigurationDecoder
    ) throws(ConfigFileErrors) -> (layers: [ConfigurationLayer], board: String?) {
        let main: TOMLTable
        do {
            main = try readTOML(path, files: files)
        } catch {
            throw ConfigFileErrors([error])
        }
        var layers = [ConfigurationLayer(file: path, table: main)]
        let boardName = decoder.string("board", in: ConfigurationDecoder.root(of: layers))
        if let (name, line, _) = boardName,
            let board = loadBoard(name, line: line, from: boardDirectories, files: files, decoder: &decoder)
        {
            if let nested = board.table["board"] {
                decoder.fail(
                    "board", "a board profile cannot name another board", file: board.file,
                    line: nested.position.line)
            }
            layers.append(board)
        }
        return (layers, boardName?.value)
    }

    /// One table of a configuration file's text (a companion program's: `[kiosk]`, `[serve]`,
    /// `[mqtt]`): the TOML alone (no board), its top level handed to `decode`, every fault as
    /// FILE:LINE: KEY. The rest of the file is other programs', which `ambience check` validates.
    public static func decodeTable<T>(
        _ bytes: [UInt8], file: String,
        _ decode: (ConfigurationDecoder.Section, inout ConfigurationDecoder) -> T?
    ) throws(ConfigFileErrors) -> T {
        let table: TOMLTable
        do {
            table = try parseTOML(bytes, file: file)
        } catch {
            throw ConfigFileErrors([error])
        }
        var decoder = ConfigurationDecoder(mainFile: file)
        let decoded = decode(
            ConfigurationDecoder.root(of: [ConfigurationLayer(file: file, table: table)]), &decoder)
        guard decoder.errors.isEmpty, let decoded else {
            throw ConfigFileErrors(decoder.errorsInReadingOrder)
        }
        return decoded
    }

    /// The same, for the file at `path`.
    public static func decodeTable<T>(
        ofFileAt path: String, files: some ConfigurationFiles,
        _ decode: (ConfigurationDecoder.Section, inout ConfigurationDecoder) -> T?
    ) throws(ConfigFileErrors) -> T {
        let bytes: [UInt8]
        do {
            bytes = try files.contents(of: path)
        } catch {
            throw ConfigFileErrors([ConfigFileError(file: path, message: "cannot read the file: \(error)")])
        }
        return try decodeTable(bytes, file: path, decode)
    }

    private static func readTOML(_ path: String, files: some ConfigurationFiles) throws(ConfigFileError)
        -> TOMLTable
    {
        let bytes: [UInt8]
        do {
            bytes = try files.contents(of: path)
        } catch {
            throw ConfigFileError(file: path, message: "cannot read the file: \(error)")
        }
        return try parseTOML(bytes, file: path)
    }

    private static func parseTOML(_ bytes: [UInt8], file: String) throws(ConfigFileError) -> TOMLTable {
        do {
            return try TOMLTable.parse(bytes)
        } catch {
            throw ConfigFileError(file: file, line: error.line, column: error.column, message: error.message)
        }
    }

    private static func loadBoard(
        _ name: String, line: Int, from directories: [String], files: some ConfigurationFiles,
        decoder: inout ConfigurationDecoder
    ) -> ConfigurationLayer? {
        let known = knownBoards(in: directories, files: files)
        let knownList =
            known.isEmpty ? "no profiles were found there" : "known boards: " + known.joined(separator: ", ")
        // A name, never a path: a profile comes from the board directories and nowhere else.
        guard !name.contains("/"), !name.hasPrefix(".") else {
            decoder.fail(
                "board", "\"\(name)\" is not a board name; \(knownList)", file: decoder.mainFile, line: line)
            return nil
        }
        for directory in directories {
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + name + ".toml"
            let bytes: [UInt8]
            do {
                bytes = try files.contents(of: path)
            } catch  where error == .noSuchFileOrDirectory || error == .notDirectory {
                continue
            } catch {
                decoder.fail(
                    "board", "cannot read the profile \(path): \(error)", file: decoder.mainFile, line: line)
                return nil
            }
            do {
                return ConfigurationLayer(file: path, table: try parseTOML(bytes, file: path))
            } catch {
                decoder.record(error)
                return nil
            }
        }
        decoder.fail(
            "board", "no profile \"\(name)\" in \(directories.joined(separator: ", ")); \(knownList)",
            file: decoder.mainFile, line: line)
        return nil
    }

    private static func knownBoards(in directories: [String], files: some ConfigurationFiles) -> [String] {
        let names = directories.flatMap { files.names(in: $0) }
            .filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }
            .map { String($0.dropLast(".toml".count)) }
        return Array(Set(names)).sorted()
    }
}

/// A companion program's table in the shared file, as its module decodes it: `ambience check`
/// runs every one beside the daemon's tables, so one command finds every fault of the file.
public struct ProgramTable: Sendable {
    public var name: String
    /// False for a program that needs its table to run at all (`[mqtt]` names a broker): without
    /// the table the program is simply not used, and there is nothing to check.
    public var checkedWhenAbsent: Bool
    public var decode: @Sendable (ConfigurationDecoder.Section, inout ConfigurationDecoder) -> Void

    public init(
        name: String, checkedWhenAbsent: Bool,
        decode: @escaping @Sendable (ConfigurationDecoder.Section, inout ConfigurationDecoder) -> Void
    ) {
        self.name = name
        self.checkedWhenAbsent = checkedWhenAbsent
        self.decode = decode
    }

    /// Each table's faults into `decoder`.
    public static func check(
        _ tables: [ProgramTable], in root: ConfigurationDecoder.Section, decoder: inout ConfigurationDecoder
    ) {
        for table in tables
        where table.checkedWhenAbsent || root.layers.contains(where: { $0.table[table.name] != nil }) {
            table.decode(root, &decoder)
        }
    }
}
