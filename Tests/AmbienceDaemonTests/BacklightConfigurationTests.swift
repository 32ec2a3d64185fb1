import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceI2C
import AmbienceOutputs
import AmbienceSimulation
import AmbienceSystem
import AmbienceTestSupport
import Testing

@Suite struct BacklightConfigurationTests {
    static let file = Fixture.path

    @Test func offUnlessTheTableIsThere() throws {
        #expect(try Fixture.load(Fixture.minimal()).backlight == nil)
        let empty = try Fixture.load(Fixture.minimal("[backlight]\n"))
        #expect(empty.backlight == BacklightSettings())
    }

    @Test(arguments: [
        ("auto", BacklightSettings.Device.auto),
        ("rpi_backlight", .sysfs("rpi_backlight")),
        ("/sys/class/backlight/10-0045", .sysfs("/sys/class/backlight/10-0045")),
        ("ddc:1", .ddc(.number(1))),
        ("ddc:CH341 I2C USB*", .ddc(.name("CH341 I2C USB*"))),
    ])
    func devices(text: String, device: BacklightSettings.Device) throws {
        let configuration = try Fixture.load(Fixture.minimal("[backlight]\ndevice = '\(text)'\n"))
        #expect(configuration.backlight?.device == device)
        #expect(device.description == text)
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try Fixture.load(
            Fixture.minimal(
                """
                [backlight]
                curve = [[1, 5], [100, 50], [10000, 100]]
                curves = { invert = [[1, 0], [50, 20]] }
                min = 3
                max = 90
                tau = 20
                dwell = 8
                deadband = 0.3
                ramp = 4

                """))
        let settings = try #require(configuration.backlight?.brightness)
        #expect(settings.curve.points.map(\.lux) == [1, 100, 10000])
        #expect(settings.invertCurve?.points.map(\.percent) == [0, 20])
        #expect(settings.regularCurve == nil && settings.contrastCurve == nil)
        #expect(settings.minimum == 3 && settings.maximum == 90)
        #expect(settings.timeConstant == 20 && settings.dwell == 8 && settings.deadband == 0.3)
        #expect(settings.rampRate == 4)
    }

    @Test(arguments: [
        ("device = 'ddc:'", "4: backlight.device: \"ddc:\" is not a backlight"),
        ("device = 'class/rpi'", "4: backlight.device: \"class/rpi\" is not a backlight"),
        ("curve = 5", "4: backlight.curve: must be an array of [lux, percent] points"),
        ("curve = [[1, 5], [2]]", "4: backlight.curve[1]: must be [lux, percent], like [500, 70]"),
        ("curve = [[10, 5], [2, 50]]", "4: backlight.curve: point 2: lux 2.0 must be above the point before"),
        ("curves = { dim = [[1, 5]] }", "4: backlight.curves.dim: unknown key"),
        ("curves = { invert = [[1, 500]] }", "4: backlight.curves.invert: point 1: percent must be 0 to 100"),
        ("min = 101", "4: backlight.min: must be a percent from 0 to 100, not 101"),
        ("min = 50\nmax = 40", "5: backlight.max: must be 1 to 100 percent and at least min (50), not 40"),
        ("tau = 0", "4: backlight.tau: τ must be a positive number of seconds, not 0.0"),
        ("ramp = 0", "4: backlight.ramp: must be 0.1 to 1000 percent per second, not 0.0"),
        ("brightness = 3", "4: backlight.brightness: unknown key"),
    ])
    func refusalsArePlaced(line: String, expected: String) {
        let errors = Fixture.errors(Fixture.minimal("[backlight]\n" + line + "\n"))
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("\(Self.file):\(expected)") == true, "\(errors)")
    }

    @Test func theTableReadsBackAsCheckPrintsIt() throws {
        let configuration = try Fixture.load(
            Fixture.minimal(
                "[backlight]\ndevice = 'ddc:2'\ncurves = { contrast = [[1000, 80], [20000, 100]] }\nramp = 2.5\n"
            ))
        #expect(configuration.tomlText.contains("\n[backlight]\ndevice = \"ddc:2\"\n"))
        #expect(try Fixture.load(configuration.tomlText) == configuration)
        #expect(try Fixture.load(Fixture.minimal()).tomlText.contains("# [backlight]: none"))
    }
}

/// What the assembly makes of `[backlight]`, against a temporary /sys/class/backlight.
struct BacklightAssemblyTests {
    let sysfs = TemporaryDirectory()

    @Test func aDDCMonitorIsBuiltOnItsBus() throws {
        let configuration = try Fixture.load(Fixture.minimal("[backlight]\ndevice = 'ddc:1'\n"))
        let clock = ManualClock(now: 0)
        var opened: [I2CBusSelector] = []
        let devices = MachineDevices(
            clock: clock, logger: Logger(write: { _ in }),
            openDDC: { selector throws(I2CError) in
                opened.append(selector)
                return MockI2CBus(clock: clock)
            }, classDirectory: sysfs.path)
        let backlight = try #require(Assembly.parts(configuration, [.backlight], devices: devices).backlight)
        #expect(backlight is DDCMonitor)
        #expect(backlight.name == "ddc:1 (0x37)")
        #expect(opened == [.number(1)])
    }

    @Test func autoWithoutADeviceIsPlacedAtTheTable() throws {
        let configuration = try Fixture.load(Fixture.minimal("[backlight]\ndevice = 'auto'\n"))
        let devices = MachineDevices(
            clock: ManualClock(now: 0), logger: Logger(write: { _ in }), classDirectory: sysfs.path)
        #expect {
            try Assembly.parts(configuration, [.backlight], devices: devices)
        } throws: { error in
            refusedKeys(error) == ["backlight.device"]
        }
    }
}
