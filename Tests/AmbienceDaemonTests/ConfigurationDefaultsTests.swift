import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceSensors
import Testing

@Suite struct ConfigurationDefaultsTests {
    typealias Settings = DaemonConfiguration

    @Test func onlyTheSensorKindIsRequired() throws {
        let configuration = try Fixture.load(Fixture.minimal())
        #expect(configuration.board == nil)
        #expect(configuration.sensor.kind == .bh1750)
        #expect(configuration.sensor.bus == 1)
        #expect(configuration.sensor.address == 0x23)
        #expect(configuration.sensor.force == false)
        #expect(configuration.sensor[BH1750.Settings.self] == BH1750.Settings.automatic)
        #expect(
            configuration.sensor[TSL2561.Settings.self]
                == TSL2561.Settings(gain: .automatic, integrationTime: .ms402))
        #expect(configuration.engine == EngineConfiguration.indoorKiosk)
        #expect(configuration.sampleInterval == 0.1)
        #expect(configuration.gpio == nil)
        #expect(configuration.pipes.paths == ["/run/ambience/state"])
        #expect(configuration.pipes.format == .json)
        #expect(configuration.pipes.mode == 0o660)
        #expect(configuration.pipes.group == nil)
        #expect(configuration.stateFile == "/run/ambience/state.json")
        #expect(configuration.controlPipe == "/run/ambience/control")
        // Readers of the theme are not writers of overrides unless the file says so.
        #expect(configuration.controlMode == 0o600 && configuration.controlGroup == nil)
        #expect(configuration.pipes.mode == 0o660)
        #expect(configuration.stateDirectory == "/var/lib/ambience")
    }

    @Test func theDefaultAddressFollowsTheKind() throws {
        #expect(try Fixture.load("[sensor]\nkind = 'tsl2561'").sensor.address == 0x39)
        #expect(try Fixture.load("[sensor]\nkind = 'bh1750'").sensor.address == 0x23)
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try Fixture.load(
            """
            state_file = "/tmp/a/state.json"
            control_pipe = "/tmp/a/control"
            control_mode = 0o620
            control_group = "kiosk-admin"
            state_directory = "/tmp/a/lib"

            [sensor]
            kind = "tsl2561"
            bus = 3
            address = 0x49
            interval = 0.25
            force = true

            [sensor.tsl2561]
            gain = "16x"
            integration = 13.7

            [sensor.bh1750]
            mode = "high2"
            mtreg = 254

            [filter]
            tau = 3.5

            [thresholds]
            invert_regular = { fall = 10, rise = 30.5 }
            regular_contrast = { fall = 1000, rise = 8000 }

            [timing]
            dwell = 2
            latency = 7
            fault_after = 1.5

            [gpio]
            chip = "/dev/gpiochip2"
            lines = { invert = 5, contrast = 6 }
            fault = 13
            active_low = true

            [pipes]
            paths = ["/tmp/a/one", "/tmp/a/two"]
            format = "plain"
            mode = 0o600
            group = "kiosk"
            """)
        #expect(configuration.stateFile == "/tmp/a/state.json")
        #expect(configuration.controlPipe == "/tmp/a/control")
        #expect(configuration.controlMode == 0o620 && configuration.controlGroup == "kiosk-admin")
        #expect(configuration.stateDirectory == "/tmp/a/lib")
        let sensor = configuration.sensor
        #expect(sensor.kind == .tsl2561 && sensor.bus == 3 && sensor.address == 0x49 && sensor.force)
        #expect(
            sensor[TSL2561.Settings.self]
                == TSL2561.Settings(gain: .fixed(.x16), integrationTime: .ms13point7))
        #expect(
            try sensor[BH1750.Settings.self] == BH1750.Settings(mode: .fixed(.high2), measurementTime: 254))
        let engine = configuration.engine
        #expect(engine.sampleInterval == 0.25)
        #expect(engine.timeConstant == 3.5)
        #expect(engine.thresholds.invertRegular == Boundary(fall: 10, rise: 30.5))
        #expect(engine.thresholds.regularContrast == Boundary(fall: 1000, rise: 8000))
        #expect(engine.minimumDwell == 2 && engine.latencyBound == 7 && engine.faultAfter == 1.5)
        #expect(
            configuration.gpio
                == GPIOIndicator.Configuration(
                    chip: "/dev/gpiochip2", lines: [.invert: 5, .contrast: 6], fault: 13, activeLow: true))
        #expect(
            configuration.pipes
                == Settings.PipeSettings(
                    paths: ["/tmp/a/one", "/tmp/a/two"], format: .plain, mode: 0o600, group: "kiosk"))
    }

    @Test(arguments: [
        (13.7, TSL2561.IntegrationTime.ms13point7), (101, .ms101), (402.0, .ms402),
    ])
    func integrationTimes(milliseconds: Double, expected: TSL2561.IntegrationTime) throws {
        let text = "[sensor]\nkind = 'tsl2561'\n[sensor.tsl2561]\nintegration = \(milliseconds)"
        #expect(try Fixture.load(text).sensor[TSL2561.Settings.self].integrationTime == expected)
    }

    @Test func theDriversSettingsAreReadInTheFilesSpelling() throws {
        for mode in BH1750.ModeSetting.configurationChoices {
            #expect(BH1750.ModeSetting(parsing: mode.configurationText) == mode)
            let mtreg = mode == .automatic ? "" : "\nmtreg = 100"
            let text = Fixture.minimal("[sensor.bh1750]\nmode = '\(mode.configurationText)'\(mtreg)")
            #expect(try Fixture.load(text).sensor[BH1750.Settings.self].mode == mode)
        }
        for gain in TSL2561.GainSetting.configurationChoices {
            #expect(TSL2561.GainSetting(parsing: gain.configurationText) == gain)
            let text = Fixture.minimal("[sensor.tsl2561]\ngain = '\(gain.configurationText)'")
            #expect(try Fixture.load(text).sensor[TSL2561.Settings.self].gain == gain)
        }
    }

    @Test func theAddressesAreTheDrivers() {
        typealias Kind = DaemonConfiguration.SensorSettings.Kind
        func chip(_ kind: Kind) -> ChipDescriptor { Chips.descriptor(kind) }
        #expect(
            chip(.bh1750).addressValues == BH1750.addresses
                && chip(.tsl2561).addressValues == TSL2561.addresses)
        #expect(
            Kind.allCases.allSatisfy {
                $0 == .iio || chip($0).addressValues.contains(chip($0).defaultAddress)
            })
        #expect(chip(.iio).addressValues.isEmpty)
    }

    @Test func eachPathIsASinkWithThePipesSettings() throws {
        let pipes = try Fixture.load(
            Fixture.minimal(
                "[pipes]\npaths = ['/run/a', '/run/b']\nformat = 'plain'\nmode = 0o640\ngroup = 'k'")
        ).pipes
        let sinks = pipes.sinks
        #expect(sinks.map(\.path) == ["/run/a", "/run/b"])
        #expect(sinks.allSatisfy { $0.format == .plain && $0.mode == 0o640 && $0.group == "k" })
    }

    @Test func aBoundaryMayGiveOnlyOneOfItsLevels() throws {
        let configuration = try Fixture.load(Fixture.minimal("[thresholds.invert_regular]\nrise = 80\n"))
        #expect(configuration.engine.thresholds.invertRegular == Boundary(fall: 20, rise: 80))
    }

    @Test func aGPIOTableWithoutLinesDrivesNothing() throws {
        #expect(
            try Fixture.load(Fixture.minimal("[gpio]\nchip = 'gpiochip0'\nactive_low = true")).gpio == nil)
    }

    @Test func theFaultLineAloneIsEnough() throws {
        let gpio = try Fixture.load(Fixture.minimal("[gpio]\nchip = 'gpiochip0'\nfault = 4")).gpio
        #expect(gpio == GPIOIndicator.Configuration(chip: "gpiochip0", lines: [:], fault: 4))
    }

    @Test func noPipesAtAll() throws {
        #expect(try Fixture.load(Fixture.minimal("[pipes]\npaths = []")).pipes.paths.isEmpty)
    }

    @Test func boardDirectoriesPutTheEnvironmentFirst() {
        let standard = ["/usr/local/share/ambience/boards", "/usr/share/ambience/boards"]
        #expect(ConfigurationSource.boardDirectories(environment: nil) == standard)
        #expect(ConfigurationSource.boardDirectories(environment: "") == standard)
        #expect(ConfigurationSource.boardDirectories(environment: "/a:/b") == ["/a", "/b"] + standard)
    }
}
