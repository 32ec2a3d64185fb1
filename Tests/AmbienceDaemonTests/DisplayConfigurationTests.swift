import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceI2C
import AmbienceOutputs
import AmbienceSimulation
import AmbienceSystem
import AmbienceTestSupport
import Testing

@Suite struct DisplayConfigurationTests {
    static let file = Fixture.path

    @Test func offUnlessTheTableIsThere() throws {
        #expect(try Fixture.load(Fixture.minimal()).display == nil)
        let empty = try Fixture.load(Fixture.minimal("[display]\n"))
        #expect(empty.display == DisplaySettings())
        #expect(empty.displayDevice == .auto)
    }

    @Test func autoIsTheBacklightsDevice() throws {
        let both = try Fixture.load(Fixture.minimal("[backlight]\ndevice = 'ddc:2'\n[display]\n"))
        #expect(both.displayDevice == .screen(.ddc(.number(2))))
        let own = try Fixture.load(
            Fixture.minimal("[backlight]\ndevice = 'ddc:2'\n[display]\ndevice = 'rpi_backlight'\n"))
        #expect(own.displayDevice == .screen(.sysfs("rpi_backlight")))
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try Fixture.load(
            Fixture.minimal(
                """
                [display]
                device = "10-0045"
                sleep_below = 2
                wake_above = 20
                sleep_after = 15
                wake_after = 4
                awake = ["07:00-22:00", "23:30-00:30"]

                """))
        let display = try #require(configuration.display)
        #expect(display.device == .screen(.sysfs("10-0045")))
        #expect(display.sleep.sleepBelow == 2 && display.sleep.wakeAbove == 20)
        #expect(display.sleep.sleepAfter == 15 * 60 && display.sleep.wakeAfter == 4)
        #expect(display.sleep.awake.map { $0.description } == ["07:00-22:00", "23:30-00:30"])
    }

    @Test(arguments: [
        ("sleep_below = 0", "4: display.sleep_below: must be more than 0 lux, not 0.0"),
        ("sleep_below = 20", "3: display.wake_above: must be more than sleep_below (20.0 lux)"),
        ("wake_above = 3", "4: display.wake_above: must be more than sleep_below (3.0 lux)"),
        ("sleep_after = 0.2", "4: display.sleep_after: must be 0.25 to 1440 minutes of darkness, not 0.2"),
        ("sleep_after = 1441", "4: display.sleep_after: must be 0.25 to 1440 minutes of darkness, not 1441"),
        ("wake_after = 601", "4: display.wake_after: must be 0 to 600 seconds, not 601.0"),
        ("awake = '07:00-22:00'", "4: display.awake: must be an array of times of day"),
        ("awake = ['7-22']", "4: display.awake[0]: must be a time of day \"HH:MM-HH:MM\""),
        ("device = 'ddc:'", "4: display.device: \"ddc:\" is not a display"),
        ("device = 'cec:'", "4: display.device: \"cec:\" is not a display"),
        ("device = 'cec:-1'", "4: display.device: \"cec:-1\" is not a display"),
        ("sleep = 3", "4: display.sleep: unknown key"),
    ])
    func refusalsArePlaced(line: String, expected: String) {
        let errors = Fixture.errors(Fixture.minimal("[display]\n" + line + "\n"))
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("\(Self.file):\(expected)") == true, "\(errors)")
    }

    @Test func aQuarterOfAMinuteIsTheLeastDarkness() throws {
        let configuration = try Fixture.load(Fixture.minimal("[display]\nsleep_after = 0.25\n"))
        #expect(try #require(configuration.display).sleep.sleepAfter == 15)
        #expect(configuration.tomlText.contains("\nsleep_after = 0.25\n"))
    }

    @Test func theTableReadsBackAsCheckPrintsIt() throws {
        let configuration = try Fixture.load(
            Fixture.minimal("[display]\nsleep_below = 1.5\nsleep_after = 30\nawake = ['08:00-18:00']\n"))
        #expect(
            configuration.tomlText.contains(
                "\n[display]\ndevice = \"auto\"\nsleep_below = 1.5\nwake_above = 10\nsleep_after = 30\n"
                    + "wake_after = 2\nawake = [\"08:00-18:00\"]\n"))
        #expect(try Fixture.load(configuration.tomlText) == configuration)
    }

    @Test func aTelevisionIsACECAdapterByNumber() throws {
        let configuration = try Fixture.load(
            Fixture.minimal("[backlight]\ndevice = 'ddc:2'\n[display]\ndevice = 'cec:1'\n"))
        #expect(configuration.displayDevice == .cec(1))
        #expect(configuration.sharedMonitor == nil)
        #expect(configuration.tomlText.contains("\n[display]\ndevice = \"cec:1\"\n"))
        #expect(try Fixture.load(configuration.tomlText) == configuration)
    }

    @Test func aWaylandSessionsOutputsAreTheDisplayByName() throws {
        let configuration = try Fixture.load(Fixture.minimal("[display]\ndevice = 'wayland'\n"))
        #expect(configuration.displayDevice == .session)
        #expect(configuration.tomlText.contains("\n[display]\ndevice = \"wayland\"\n"))
        #expect(try Fixture.load(configuration.tomlText) == configuration)
        // check says what the kiosk needs: its pipe among the daemon's, a control pipe it may write.
        let advice = configuration.sessionDisplayAdvice(kioskPipe: "/run/ambience/kiosk").joined()
        #expect(advice.contains("/run/ambience/kiosk, which pipes.paths does not list"))
        #expect(advice.contains("control_mode = 0o620"))
        let ready = try Fixture.load(
            "control_mode = 0o620\ncontrol_group = 'ambience'\n"
                + Fixture.minimal("[pipes]\npaths = ['/run/ambience/kiosk']\n[display]\ndevice = 'wayland'\n")
        )
        #expect(ready.sessionDisplayAdvice(kioskPipe: "/run/ambience/kiosk").isEmpty)
    }

    @Test func aWaylandSessionNeedsJSONLines() throws {
        let errors = Fixture.errors(
            Fixture.minimal("[pipes]\nformat = 'plain'\n[display]\ndevice = 'wayland'\n"))
        #expect(
            errors.contains {
                $0.contains("display.device: \"wayland\" is asked of ambience kiosk in JSON lines")
            })
    }

    @Test func aNewDisplayDeviceIsANewPartAndNewTimesAreNot() throws {
        let before = try Fixture.load(Fixture.minimal("[display]\n"))
        let later = try Fixture.load(Fixture.minimal("[display]\nsleep_after = 20\n"))
        let other = try Fixture.load(Fixture.minimal("[display]\ndevice = 'rpi_backlight'\n"))
        #expect(DaemonPart.changed(from: before, to: later).isEmpty)
        #expect(DaemonPart.changed(from: before, to: other) == [.display])
    }
}

/// What the assembly makes of `[display]` beside `[backlight]`.
struct DisplayAssemblyTests {
    let sysfs = TemporaryDirectory()
    let clock = ManualClock(now: 0)

    @Test func oneMonitorDoesBothWhenBothNameIt() throws {
        let configuration = try Fixture.load(Fixture.minimal("[backlight]\ndevice = 'ddc:1'\n[display]\n"))
        #expect(configuration.sharedMonitor == .number(1))
        var opened = 0
        let devices = MachineDevices(
            clock: clock, logger: Logger(write: { _ in }),
            openDDC: { _ throws(I2CError) in
                opened += 1
                return MockI2CBus(clock: clock)
            }, classDirectory: sysfs.path)
        let parts = try Assembly.parts(configuration, [.backlight, .display], devices: devices)
        let backlight = try #require(parts.backlight)
        let display = try #require(parts.display)
        #expect(backlight === display)
        #expect(opened == 1)
        // Each assembly its own monitor: a reload's is not the one it replaces.
        let again = try Assembly.parts(configuration, [.backlight, .display], devices: devices)
        #expect(try #require(again.backlight) !== backlight)
        #expect(opened == 2)
        // A reload that changes one rebuilds both.
        let moved = try Fixture.load(
            Fixture.minimal("[backlight]\ndevice = 'ddc:1'\n[display]\ndevice = 'ddc:2'\n"))
        #expect(DaemonPart.changed(from: configuration, to: moved) == [.backlight, .display])
        #expect(moved.sharedMonitor == nil)
    }

    @Test func aBacklightClassDeviceWithoutBlPowerIsPlacedAtTheTable() throws {
        try FileSystem.makeDirectory(sysfs.file("panel"), mode: 0o755)
        let configuration = try Fixture.load(Fixture.minimal("[display]\ndevice = 'nothing-here'\n"))
        let devices = MachineDevices(
            clock: clock, logger: Logger(write: { _ in }), classDirectory: sysfs.path)
        #expect {
            try Assembly.parts(configuration, [.display], devices: devices)
        } throws: { error in
            refusedKeys(error) == ["display.device"]
        }
    }
}
