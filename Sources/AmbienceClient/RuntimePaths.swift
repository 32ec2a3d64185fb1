/// Where the daemon keeps what its clients use, by default: systemd's RuntimeDirectory=ambience.
/// The daemon's outputs (AmbienceOutputs) and every client take their defaults from here.
public enum RuntimePaths {
    public static let directory = "/run/ambience"
    /// The named pipe of `[pipes] paths` by default, and `ambience watch`'s.
    public static let statePipe = directory + "/state"
    /// The state file: the latest event line.
    public static let stateFile = directory + "/state.json"
    /// The control pipe: `override …` and `record` lines in.
    public static let controlPipe = directory + "/control"

    /// Where the daemon answers `record`: beside the control pipe at `path`.
    public static func record(forControl path: String) -> String {
        parent(of: path) + "/record.csv"
    }

    /// The directory part of `path` ("." for a bare name, "/" for one at the root).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
