import AmbienceConfig
import AmbienceDaemon
import AmbienceKiosk
import AmbienceMQTT
import AmbienceServe
import AmbienceSystem

/// libFuzzer entry: any bytes as the main configuration file, with one board profile beside it,
/// checked as `ambience check` does (every program's table). Whatever the input, loading either
/// succeeds or throws file:line errors; it never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let files = InMemoryFiles(main: Array(UnsafeBufferPointer(start: data, count: size)))
    if let configuration = try? DaemonConfiguration.load(
        from: "/fuzz/ambience.toml", boardDirectories: ["/boards"], files: files,
        alsoChecking: { root, decoder in
            ProgramTable.check(
                [KioskSettings.table, ServeConfiguration.table, MQTTConfiguration.table], in: root,
                decoder: &decoder)
        })
    {
        _ = configuration.tomlText
    }
    return 0
}

struct InMemoryFiles: ConfigurationFiles {
    let main: [UInt8]

    func contents(of path: String) throws(Errno) -> [UInt8] {
        switch path {
        case "/fuzz/ambience.toml": return main
        case "/boards/pi.toml":
            return Array("[sensor]\nbus = 1\n[gpio]\nchip = \"gpiochip0\"\nlines = { invert = 17 }\n".utf8)
        default: throw Errno.noSuchFileOrDirectory
        }
    }

    func names(in directory: String) -> [String] { directory == "/boards" ? ["pi.toml"] : [] }
}
