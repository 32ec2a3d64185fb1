import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import Testing

/// `[whitepoint]`: off unless there, every key read, every refusal placed at its file, line and
/// key, and the table read back as `ambience check` prints it.
@Suite struct WhitePointConfigurationTests {
    static let file = Fixture.path

    @Test func offUnlessTheTableIsThere() throws {
        #expect(try Fixture.load(Fixture.minimal()).whitePoint == nil)
        #expect(try Fixture.load(Fixture.minimal("[whitepoint]\n")).whitePoint == WhitePointSettings())
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try Fixture.load(
            Fixture.minimal(
                """
                [whitepoint]
                native = 6000
                warmest = 3500
                coolest = 6000
                strength = 1
                dim_below = 25
                tau = 5
                dwell = 30
                deadband = 15
                ramp = 2
                night = ["22:00-06:30"]
                night_kelvin = 3000

                """))
        let settings = try #require(configuration.whitePoint?.whitePoint)
        #expect(settings.native == 6000 && settings.warmest == 3500 && settings.coolest == 6000)
        #expect(settings.strength == 1 && settings.dimBelow == 25 && settings.timeConstant == 5)
        #expect(settings.dwell == 30 && settings.deadband == 15 && settings.rampRate == 2)
        #expect(settings.night.map(\.description) == ["22:00-06:30"] && settings.nightKelvin == 3000)
    }

    @Test(arguments: [
        ("native = 900", "4: whitepoint.native: must be 1000 to 15000 K, not 900.0"),
        (
            "warmest = 5000\ncoolest = 4500",
            "5: whitepoint.coolest: must be 1000 to 15000 K and at least warmest"
        ),
        ("strength = 1.5", "4: whitepoint.strength: must be 0 to 1, not 1.5"),
        ("tau = 0", "4: whitepoint.tau: τ must be a positive number of seconds, not 0.0"),
        ("deadband = 300", "4: whitepoint.deadband: must be 0 to 200 mireds, not 300.0"),
        ("ramp = 0", "4: whitepoint.ramp: must be 0.1 to 1000 mireds per second, not 0.0"),
        ("night = ['22:00']", "4: whitepoint.night[0]: must be a time of day \"HH:MM-HH:MM\""),
        ("night = '22:00-06:00'", "4: whitepoint.night: must be an array of times of day"),
        ("kelvin = 5000", "4: whitepoint.kelvin: unknown key"),
    ])
    func refusalsArePlaced(line: String, expected: String) {
        let errors = Fixture.errors(Fixture.minimal("[whitepoint]\n" + line + "\n"))
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("\(Self.file):\(expected)") == true, "\(errors)")
    }

    @Test func theTableReadsBackAsCheckPrintsIt() throws {
        let configuration = try Fixture.load(
            Fixture.minimal("[whitepoint]\nstrength = 0.5\nnight = ['21:30-07:00']\n"))
        #expect(configuration.tomlText.contains("\n[whitepoint]\nnative = 6500\n"))
        #expect(configuration.tomlText.contains("\nnight = [\"21:30-07:00\"]\n"))
        #expect(try Fixture.load(configuration.tomlText) == configuration)
        #expect(try Fixture.load(Fixture.minimal()).tomlText.contains("# [whitepoint]: none"))
    }
}
