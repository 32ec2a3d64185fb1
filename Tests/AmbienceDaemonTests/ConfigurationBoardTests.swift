import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceSystem
import Foundation
import Testing

@Suite struct ConfigurationBoardTests {
    static let file = Fixture.path
    static let pi = """
        # test board
        [sensor]
        bus = 3

        [gpio]
        chip = "pinctrl-test"
        lines = { invert = 17, regular = 27, contrast = 22 }
        fault = 23
        """

    @Test func aBoardSuppliesWhatTheFileLeavesOut() throws {
        let configuration = try Fixture.load("board = 'pi'\n" + Fixture.minimal(), boards: ["pi": Self.pi])
        #expect(configuration.board == "pi")
        #expect(configuration.sensor.bus == 3)
        #expect(
            configuration.gpio
                == GPIOIndicator.Configuration(
                    chip: "pinctrl-test", lines: [.invert: 17, .regular: 27, .contrast: 22], fault: 23))
    }

    @Test func theFileOverridesAnyKeyOfTheBoard() throws {
        let configuration = try Fixture.load(
            "board = 'pi'\n" + Fixture.minimal("bus = 0\n[gpio]\nfault = 5\nactive_low = true"),
            boards: ["pi": Self.pi])
        #expect(configuration.sensor.bus == 0)
        #expect(configuration.gpio?.chip == "pinctrl-test")
        #expect(configuration.gpio?.fault == 5)
        #expect(configuration.gpio?.activeLow == true)
        #expect(configuration.gpio?.lines == [.invert: 17, .regular: 27, .contrast: 22])
    }

    @Test func linesGivenInTheFileReplaceTheBoardsWhole() throws {
        let configuration = try Fixture.load(
            "board = 'pi'\n" + Fixture.minimal("[gpio]\nlines = { contrast = 5 }"), boards: ["pi": Self.pi])
        #expect(configuration.gpio?.lines == [.contrast: 5])
        #expect(configuration.gpio?.fault == 23)
    }

    @Test func theFirstDirectoryThatHasTheBoardWins() throws {
        let files = MemoryFiles(files: [
            Fixture.path: "board = 'pi'\n" + Fixture.minimal(),
            "/first/other.toml": "[sensor]\nbus = 1",
            "/second/pi.toml": "[sensor]\nbus = 2",
            "/third/pi.toml": "[sensor]\nbus = 3",
        ])
        let configuration = try DaemonConfiguration.load(
            from: Fixture.path, boardDirectories: ["/first", "/second/", "/third"], files: files)
        #expect(configuration.sensor.bus == 2)
    }

    @Test func anUnknownBoardListsTheKnownOnes() {
        #expect(
            Fixture.errors(
                "# kiosk\nboard = 'pi-6'\n" + Fixture.minimal(), boards: ["pi": Self.pi, "zero": ""]) == [
                    "\(Self.file):2: board: no profile \"pi-6\" in /boards; known boards: pi, zero"
                ])
        #expect(
            Fixture.errors("board = 'pi'\n" + Fixture.minimal()) == [
                "\(Self.file):1: board: no profile \"pi\" in /boards; no profiles were found there"
            ])
    }

    @Test func aBoardIsANameNotAPath() {
        #expect(
            Fixture.errors("board = '../etc/pi'\n" + Fixture.minimal(), boards: ["pi": Self.pi]) == [
                "\(Self.file):1: board: \"../etc/pi\" is not a board name; known boards: pi"
            ])
        #expect(
            Fixture.errors("board = 4\n" + Fixture.minimal()) == [
                "\(Self.file):1: board: must be a string, not an integer"
            ])
    }

    @Test func faultsInTheBoardAreReportedInTheBoardFile() {
        let board = "[sensor]\nbus = -2\n\n[gpio]\nchip = 'c'\nlines = { dim = 4 }\n"
        #expect(
            Fixture.errors("board = 'pi'\n" + Fixture.minimal(), boards: ["pi": board]) == [
                "/boards/pi.toml:2: sensor.bus: must be an I2C bus number from 0 to 2147483647, not -2",
                "/boards/pi.toml:6: gpio.lines.dim: unknown key; gpio.lines takes invert, regular, contrast",
            ])
    }

    @Test func aBoardCannotNameAnotherBoard() {
        #expect(
            Fixture.errors("board = 'pi'\n" + Fixture.minimal(), boards: ["pi": "board = 'pi'\n"]) == [
                "/boards/pi.toml:1: board: a board profile cannot name another board"
            ])
    }

    @Test func aBoardThatIsNotTOMLIsReportedWithItsColumn() {
        #expect(
            Fixture.errors("board = 'pi'\n" + Fixture.minimal(), boards: ["pi": "[sensor]\nbus = 1 1\n"]) == [
                "/boards/pi.toml:2:9: expected the end of the line, found '1'"
            ])
    }

    @Test func anUnreadableBoardIsReportedAtTheBoardKey() {
        let files = MemoryFiles(
            files: [Fixture.path: "board = 'pi'\n" + Fixture.minimal(), "/boards/pi.toml": ""],
            unreadable: ["/boards/pi.toml"])
        #expect(
            throws: ConfigFileErrors([
                ConfigFileError(
                    file: Fixture.path, line: 1, key: "board",
                    message: "cannot read the profile /boards/pi.toml: Permission denied")
            ])
        ) {
            try DaemonConfiguration.load(from: Fixture.path, boardDirectories: ["/boards"], files: files)
        }
    }

    @Test func theFileIsStillCheckedWhenTheBoardIsMissing() {
        let errors = Fixture.errors("board = 'none'\n" + Fixture.minimal("bus = true"))
        #expect(errors.count == 2)
        #expect(errors.last == "\(Self.file):4: sensor.bus: must be an integer, not a boolean")
    }

    @Test func anEngineFaultCausedByTheBoardPointsAtTheBoard() {
        let errors = Fixture.errors(
            "board = 'slow'\n" + Fixture.minimal(), boards: ["slow": "[timing]\ndwell = 8\n"])
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("/boards/slow.toml:1: timing.latency: ") == true)
    }

    // MARK: The shipped files

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let boardDirectory = repository.appendingPathComponent("boards").path

    @Test func theShippedConfigurationIsValidWithItsBoard() throws {
        let path = Self.repository.appendingPathComponent("config/ambience.toml").path
        let configuration = try DaemonConfiguration.load(from: path, boardDirectories: [Self.boardDirectory])
        #expect(configuration.board == "raspberry-pi-4")
        #expect(configuration.sensor.kind == .bh1750)
        #expect(configuration.sensor.bus == 1)
        #expect(configuration.engine == EngineConfiguration.indoorKiosk)
        #expect(configuration.gpio?.chip == "pinctrl-bcm2711")
        #expect(configuration.pipes == DaemonConfiguration.PipeSettings())
    }

    @Test(arguments: [
        ("raspberry-pi-zero", "pinctrl-bcm2835"), ("raspberry-pi-3", "pinctrl-bcm2835"),
        ("raspberry-pi-zero-2-w", "pinctrl-bcm2835"),
        ("raspberry-pi-4", "pinctrl-bcm2711"), ("raspberry-pi-400", "pinctrl-bcm2711"),
        ("raspberry-pi-cm4", "pinctrl-bcm2711"), ("raspberry-pi-5", "pinctrl-rp1"),
    ])
    func everyRaspberryPiProfileLoads(board: String, chip: String) throws {
        let files = MemoryFiles(files: [Fixture.path: "board = '\(board)'\n" + Fixture.minimal()])
        let configuration = try DaemonConfiguration.load(
            from: Fixture.path, boardDirectories: [Self.boardDirectory], files: FilesOverlay(memory: files))
        #expect(configuration.sensor.bus == 1)
        #expect(
            configuration.gpio
                == GPIOIndicator.Configuration(
                    chip: chip, lines: [.invert: 17, .regular: 27, .contrast: 22], fault: 23))
    }

    @Test func theGenericProfileLeavesTheLinesToTheFile() throws {
        let text = "board = 'generic'\n" + Fixture.minimal("[gpio]\nlines = { regular = 5 }")
        let configuration = try DaemonConfiguration.load(
            from: Fixture.path, boardDirectories: [Self.boardDirectory],
            files: FilesOverlay(memory: MemoryFiles(files: [Fixture.path: text])))
        #expect(configuration.sensor.bus == 1)
        #expect(
            configuration.gpio == GPIOIndicator.Configuration(chip: "gpiochip0", lines: [.regular: 5]))
    }
}

/// The configuration from memory, the shipped board profiles from the disk.
struct FilesOverlay: ConfigurationFiles {
    var memory: MemoryFiles
    let disk = SystemConfigurationFiles()

    func contents(of path: String) throws(Errno) -> [UInt8] {
        memory.files[path] != nil ? try memory.contents(of: path) : try disk.contents(of: path)
    }

    func names(in directory: String) -> [String] { disk.names(in: directory) }
}
