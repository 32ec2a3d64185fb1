import AmbienceConfig
import AmbienceServe
import Testing

/// The `[serve]` table: `ambience serve` reads it with the one decoder, beside the daemon's tables
/// (which the daemon reads, taking this one as another program's); `ambience check` checks both.
@Suite struct ServeConfigurationTests {
    static let file = "/etc/ambience/ambience.toml"

    /// The smallest file the daemon takes, followed by `more`.
    static func minimal(_ more: String) -> String { "[sensor]\nkind = \"bh1750\"\n" + more }

    static func decode(_ text: String) throws(ConfigFileErrors) -> ServeConfiguration {
        try ServeConfiguration.decode(Array(text.utf8), file: file)
    }

    static func errors(_ text: String) -> [String] {
        do {
            _ = try decode(text)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func theTableIsChecked() {
        let text = Self.minimal("[serve]\nlisten = \"10.0.0.1:80\"\n")
        #expect(
            Self.errors(text) == [
                Self.file + ":4: serve.listen: \"10.0.0.1:80\" is not a loopback address; set allow_remote"
                    + " = true to listen there"
            ])
    }

    @Test func aGoodTableIsTaken() throws {
        let text = Self.minimal("[serve]\nlisten = \"127.0.0.1:9000\"\nallowed_origin = \"*\"\n")
        #expect(Self.errors(text) == [])
    }

    @Test func defaultsWithoutTheTable() throws {
        let configuration = try Self.decode("[sensor]\nkind = \"bh1750\"\n")
        #expect(configuration == ServeConfiguration())
        #expect(configuration.listen.description == "127.0.0.1:8470")
        #expect(configuration.pipe == "/run/ambience/serve")
        #expect(configuration.allowedOrigin == "*")
    }

    @Test func everyKey() throws {
        let configuration = try Self.decode(
            """
            [serve]
            listen = "[::1]:8080"
            allowed_origin = "https://dash.example:8123"
            pipe = "/run/ambience/web"
            """)
        #expect(
            configuration.listen
                == ListenAddress(family: .ipv6(Array(repeating: 0, count: 15) + [1]), port: 8080))
        #expect(configuration.allowedOrigin == "https://dash.example:8123")
        #expect(configuration.pipe == "/run/ambience/web")
    }

    @Test(arguments: [
        (
            "[serve]\nport = 1",
            "2: serve.port: unknown key; serve takes listen, allowed_origin, pipe, allow_remote"
        ),
        (
            "[serve]\nlisten = \"127.0.0.1\"",
            "2: serve.listen: \"127.0.0.1\" is not ADDRESS:PORT (127.0.0.1:8470, [::1]:8470, localhost:8470)"
        ),
        (
            "[serve]\nlisten = \"192.168.1.5:8470\"",
            "2: serve.listen: \"192.168.1.5:8470\" is not a loopback address; set allow_remote = true to"
                + " listen there"
        ),
        (
            "[serve]\npipe = \"serve\"",
            "2: serve.pipe: \"serve\" must be an absolute path (starting with /)"
        ),
        (
            "[serve]\nallowed_origin = \"https://x/\\r\\nSet-Cookie: a\"",
            "2: serve.allowed_origin: \"https://x/\r\nSet-Cookie: a\" is not \"*\" or an origin such as"
                + " \"https://dash.example:8123\""
        ),
        (
            "[serve]\nallow_remote = \"yes\"",
            "2: serve.allow_remote: must be true or false, not a string"
        ),
        ("serve = 1", "1: serve: must be a table, not an integer"),
    ])
    func refusals(text: String, message: String) {
        #expect(Self.errors(text) == [Self.file + ":" + message])
    }

    @Test func remoteWhenAllowed() throws {
        let configuration = try Self.decode("[serve]\nlisten = \"0.0.0.0:8470\"\nallow_remote = true\n")
        #expect(!configuration.listen.isLoopback)
        #expect(configuration.allowRemote)
    }

    @Test(
        arguments: [
            ("127.0.0.1:8470", "127.0.0.1:8470", true),
            ("localhost:1", "127.0.0.1:1", true),
            ("127.1.2.3:0", "127.1.2.3:0", true),
            ("[::1]:80", "[::1]:80", true),
            ("[::ffff:127.0.0.1]:80", nil, false),
            ("[::ffff:7f00:1]:80", "[::ffff:7f00:1]:80", true),
            ("[fe80::1]:80", "[fe80::1]:80", false),
            ("[1:0:0:2:0:0:0:3]:80", "[1:0:0:2::3]:80", false),
            ("[1:0:2:3:4:5:6:7]:80", "[1:0:2:3:4:5:6:7]:80", false),
            ("[::]:80", "[::]:80", false),
            ("10.0.0.1:8470", "10.0.0.1:8470", false),
            ("127.0.0.1:65536", nil, false),
            ("127.0.0.1:-1", nil, false),
            ("127.0.0.256:80", nil, false),
            ("127.0.0:80", nil, false),
            (":80", nil, false),
            ("[1:2:3:4:5:6:7:8:9]:80", nil, false),
            ("[1::2::3]:80", nil, false),
            ("example.com:80", nil, false),
        ] as [(String, String?, Bool)])
    func listenAddresses(text: String, shown: String?, loopback: Bool) {
        let address = ListenAddress(parsing: text)
        #expect(address?.description == shown)
        if let address { #expect(address.isLoopback == loopback) }
    }
}
