import AmbienceCore
import AmbienceSystem
import TOML

#if canImport(Glibc)
    import Glibc
#endif

extension DaemonConfiguration {
    /// Where board profiles are looked for: `$AMBIENCE_BOARDS` (a colon-separated list) first,
    /// then the locally installed profiles, then the packaged ones.
    public static func boardDirectories(environment value: String?) -> [String] {
        let fromEnvironment = (value ?? "").split(separator: ":").map(String.init)
        return fromEnvironment + ["/usr/local/share/ambience/boards", "/usr/share/ambience/boards"]
    }

    /// Reads the configuration at `path`, loads the board profile it names from the first of
    /// `boardDirectories` that has it, and validates the result: the file's keys over the board's,
    /// over the defaults. Throws every fault found, each with its file, line and key.
    public static func load(
        from path: String, boardDirectories: [String],
        files: some ConfigurationFiles = SystemConfigurationFiles()
    ) throws(ConfigFileErrors) -> DaemonConfiguration {
        var decoder = ConfigurationDecoder(mainFile: path)
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
        let decoded = decode(layers, board: boardName?.value, decoder: &decoder)
        guard decoder.errors.isEmpty, var configuration = decoded else {
            throw ConfigFileErrors(decoder.errorsInReadingOrder)
        }
        configuration.origins = ConfigurationOrigins(byKey: decoder.origins, file: path)
        return configuration
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
