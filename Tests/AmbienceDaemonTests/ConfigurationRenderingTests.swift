import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceKiosk
import AmbienceSensors
import Testing

/// What `ambience check` prints must itself be a configuration that reads back the same.
@Suite struct ConfigurationRenderingTests {
    func readBack(_ configuration: DaemonConfiguration) throws -> DaemonConfiguration {
        try Fixture.load(configuration.tomlText)
    }

    /// What `ambience check` prints (the daemon's tables, then the kiosk's), read back by each.
    func readBack(_ configuration: DaemonConfiguration, _ kiosk: KioskSettings) throws -> (
        DaemonConfiguration, KioskSettings
    ) {
        let text = configuration.tomlText + kiosk.tomlText
        let files = MemoryFiles(files: [Fixture.path: text])
        return (try Fixture.load(text), try KioskSettings.load(from: Fixture.path, files: files))
    }

    @Test func theDefaultsReadBack() throws {
        let configuration = try Fixture.load(Fixture.minimal())
        #expect(try readBack(configuration) == configuration)
    }

    @Test func aBusByAdapterNameReadsBack() throws {
        let configuration = try Fixture.load(Fixture.minimal("bus = 'CH341 I2C USB*'\n"))
        #expect(configuration.sensor.bus == .name("CH341 I2C USB*"))
        #expect(configuration.tomlText.contains("bus = \"CH341 I2C USB*\"\n"))
        #expect(try readBack(configuration) == configuration)
    }

    @Test func everySettingReadsBack() throws {
        var configuration = DaemonConfiguration(
            sensor: .init(
                kind: .tsl2561, bus: 7, address: 0x29, force: true,
                settings: [
                    .bh1750(try BH1750.Settings(mode: .fixed(.low), measurementTime: 31)),
                    .tsl2561(TSL2561.Settings(gain: .fixed(.x1), integrationTime: .ms13point7)),
                    .veml7700(VEML7700.Settings(gain: .quarter, integrationTime: .ms25)),
                    .tsl2591(TSL2591.Settings(gain: .fixed(.maximum), integrationTime: .ms600)),
                    .opt3001(
                        OPT3001.Settings(
                            range: .fixed(OPT3001.FullScale(number: 11)!), conversionTime: .ms100)),
                ]),
            engine: try EngineConfiguration(
                thresholds: Thresholds(
                    invertRegular: Boundary(fall: 0.5, rise: 12.25),
                    regularContrast: Boundary(fall: 1e4, rise: 123_456.789)),
                timeConstant: 0.3, minimumDwell: 0, latencyBound: 1e-1 + 0.2, sampleInterval: 0.3,
                faultAfter: 86_400),
            gpio: .init(
                chip: "label with \"quotes\" and é", lines: [.regular: 0, .contrast: 65_535], activeLow: true),
            pipes: .init(paths: ["/run/a b", "/run/c\\d"], format: .plain, mode: 0, group: "kiosk"),
            stateFile: "/s", controlPipe: "/c", stateDirectory: "/d")
        configuration.record = .init(persist: false, flushInterval: 12.5, maximumBytes: 123_456)
        var kiosk = KioskSettings(
            pipe: "/run/wall \"kiosk\"",
            invert: Appearance(
                features: [
                    MediaFeature("prefers-color-scheme", "dark"), MediaFeature("forced-colors", "active"),
                ],
                autoDarkMode: true),
            regular: Appearance(features: [], autoDarkMode: false),
            restart: true, restartDelay: 0.25, restartDelayLimit: 7.5, answerTimeout: 600, stopTimeout: 0.1,
            userDataDirectory: "/var/lib/kiosk é")
        // The daemon's control pipe, which the kiosk reads from the same file.
        kiosk.controlPipe = "/c"
        let (daemon, kioskReadBack) = try readBack(configuration, kiosk)
        #expect(daemon == configuration && kioskReadBack == kiosk)
    }

    @Test func aBoardIsMergedIntoTheTextAndNamedInAComment() throws {
        let board = "[sensor]\nbus = 3\n[gpio]\nchip = 'b'\nlines = { invert = 1 }\nfault = 2\n"
        let configuration = try Fixture.load("board = 'pi'\n" + Fixture.minimal(), boards: ["pi": board])
        let text = configuration.tomlText
        #expect(text.hasPrefix("# board = \"pi\""))
        var standalone = configuration
        standalone.board = nil
        #expect(try Fixture.load(text) == standalone)
    }

    @Test func theTextIsWhatAPersonWouldWrite() throws {
        let configuration = try Fixture.load(
            Fixture.minimal("[gpio]\nchip = 'gpiochip0'\nlines = { contrast = 22, invert = 17 }"))
        #expect(
            configuration.tomlText + KioskSettings().tomlText == """
                state_file = "/run/ambience/state.json"
                control_pipe = "/run/ambience/control"
                control_mode = 0o600
                # control_group: the daemon's own
                state_directory = "/var/lib/ambience"

                [sensor]
                kind = "bh1750"
                bus = 1
                address = 0x23
                interval = 0.1
                force = false

                [sensor.bh1750]
                mode = "auto"
                # mtreg: chosen by automatic ranging

                [sensor.tsl2561]   # not used with this sensor kind
                gain = "auto"
                integration = 402

                [sensor.veml7700]   # not used with this sensor kind
                gain = "auto"
                # integration: chosen by automatic ranging

                [sensor.tsl2591]   # not used with this sensor kind
                gain = "auto"
                integration = 100

                [sensor.opt3001]   # not used with this sensor kind
                range = "auto"
                integration = 800

                [sensor.tcs34725]   # not used with this sensor kind
                gain = "auto"
                integration = 101

                [filter]
                tau = 2

                [thresholds]
                invert_regular = { fall = 20, rise = 50 }
                regular_contrast = { fall = 2500, rise = 5000 }

                [timing]
                dwell = 5
                latency = 12
                fault_after = 5

                [gpio]
                chip = "gpiochip0"
                lines = { invert = 17, contrast = 22 }
                active_low = false

                [pipes]
                paths = ["/run/ambience/state"]
                format = "json"
                mode = 0o660
                # group: the daemon's own

                [record]
                persist = true
                flush_interval = 300
                max_bytes = 2000000

                # [backlight]: none, the display's brightness is left alone

                # [display]: none, the display never sleeps with the room

                # [whitepoint]: none, the display's white is left alone

                [kiosk]
                pipe = "/run/ambience/kiosk"
                restart = false
                restart_delay = 1
                restart_delay_max = 60
                answer_timeout = 60
                stop_timeout = 5
                # user_data_dir: $XDG_STATE_HOME/ambience/kiosk-browser, else ~/.local/state/…

                [kiosk.invert]
                prefers-color-scheme = "dark"

                [kiosk.regular]
                prefers-color-scheme = "light"

                [kiosk.contrast]
                prefers-color-scheme = "light"
                prefers-contrast = "more"

                """)
    }

    @Test func noIndicatorLinesIsSaidInAComment() throws {
        let text = try Fixture.load(Fixture.minimal()).tomlText
        #expect(text.contains("\n# [gpio]: no indicator lines\n"))
        #expect(!text.contains("\n[gpio]"))
    }
}
