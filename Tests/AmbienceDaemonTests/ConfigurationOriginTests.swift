import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import Testing

/// Faults the devices find after loading (a missing chip, a busy or out-of-range line) are
/// still placed at the file, line and key the user wrote.
struct ConfigurationOriginTests {
    @Test func aDeviceRefusalIsPlacedWhereItsKeyWasSet() throws {
        let text = Fixture.minimal("[gpio]\nchip = \"nosuchchip\"\nlines = { invert = 17, regular = 99 }\n")
        let configuration = try Fixture.load(text)
        let chip = configuration.locate(ConfigurationError(key: "gpio.chip", message: "no such chip"))
        #expect(chip.description == "/etc/ambience/ambience.toml:4: gpio.chip: no such chip")
        let line = configuration.locate(
            ConfigurationError(key: "gpio.lines.regular", message: "out of range"))
        #expect(line.file == Fixture.path && line.line == 5 && line.key == "gpio.lines.regular")
    }

    @Test func aKeyFromTheBoardIsPlacedInTheBoardProfile() throws {
        let configuration = try Fixture.load(
            "board = \"pi\"\n" + Fixture.minimal(),
            boards: ["pi": "# a board\n[gpio]\nchip = \"pinctrl-bcm2711\"\nlines = { invert = 17 }\n"])
        let placed = configuration.locate(ConfigurationError(key: "gpio.chip", message: "no such chip"))
        #expect(placed.file == "/boards/pi.toml" && placed.line == 3)
    }

    @Test func aKeyLeftToTheDefaultsIsPlacedAtTheFile() throws {
        let configuration = try Fixture.load(Fixture.minimal())
        let placed = configuration.locate(ConfigurationError(key: "pipes.paths[0]", message: "not a FIFO"))
        #expect(placed.description == "/etc/ambience/ambience.toml: pipes.paths[0]: not a FIFO")
    }
}
