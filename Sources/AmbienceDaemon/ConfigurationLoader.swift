import AmbienceConfig

extension DaemonConfiguration {
    /// Reads the configuration at `path`, loads the board profile it names from the first of
    /// `boardDirectories` that has it, and validates the daemon's tables: the file's keys over
    /// the board's, over the defaults. Throws every fault found, each with its file, line and key.
    /// `alsoChecking` decodes other programs' tables from the same file into the same faults
    /// (`ambience check`); the daemon itself reads only its own.
    public static func load(
        from path: String, boardDirectories: [String],
        files: some ConfigurationFiles = SystemConfigurationFiles(),
        alsoChecking others: (ConfigurationDecoder.Section, inout ConfigurationDecoder) -> Void = { _, _ in }
    ) throws(ConfigFileErrors) -> DaemonConfiguration {
        var decoder = ConfigurationDecoder(mainFile: path)
        let (layers, board) = try ConfigurationSource.layers(
            of: path, boardDirectories: boardDirectories, files: files, decoder: &decoder)
        let decoded = decode(layers, board: board, decoder: &decoder)
        others(ConfigurationDecoder.root(of: layers), &decoder)
        guard decoder.errors.isEmpty, var configuration = decoded else {
            throw ConfigFileErrors(decoder.errorsInReadingOrder)
        }
        configuration.origins = ConfigurationOrigins(byKey: decoder.origins, file: path)
        return configuration
    }
}
