import AmbienceConfig
import AmbienceDaemon
import AmbienceKiosk
import Testing

@Suite struct KioskConfigurationTests {
    func load(_ text: String) throws(ConfigFileErrors) -> KioskSettings {
        try KioskSettings.load(from: Fixture.path, files: MemoryFiles(files: [Fixture.path: text]))
    }

    func errors(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func withoutATableTheDefaults() throws {
        let settings = try load(Fixture.minimal())
        #expect(settings == KioskSettings())
        #expect(settings.pipe == "/run/ambience/kiosk")
        #expect(settings.appearance(for: .invert).features == [MediaFeature("prefers-color-scheme", "dark")])
        #expect(
            settings.appearance(for: .contrast).features == [
                MediaFeature("prefers-color-scheme", "light"), MediaFeature("prefers-contrast", "more"),
            ])
        #expect(!settings.overridesAutoDarkMode)
    }

    @Test func aStateTableReplacesThatStatesFeatures() throws {
        let settings = try load(
            """
            [kiosk]
            pipe = "/run/ambience/wall"
            restart = true
            restart_delay = 0.5
            answer_timeout = 20
            [kiosk.invert]
            prefers-color-scheme = "dark"
            forced-colors = "active"
            auto_dark_mode = true
            """)
        #expect(settings.pipe == "/run/ambience/wall")
        #expect(settings.restart && settings.restartDelay == 0.5 && settings.answerTimeout == 20)
        #expect(
            settings.invert
                == Appearance(
                    features: [
                        MediaFeature("prefers-color-scheme", "dark"), MediaFeature("forced-colors", "active"),
                    ],
                    autoDarkMode: true))
        #expect(settings.regular == .defaultAppearance(for: .regular))
        #expect(settings.overridesAutoDarkMode)
    }

    @Test func faultsNameFileLineAndKey() {
        #expect(
            errors(
                """
                [kiosk]
                restart = "yes"
                colour = 1
                restart_delay = 0
                [kiosk.contrast]
                prefers-contrast = "loud"
                """)
                == [
                    "/etc/ambience/ambience.toml:2: kiosk.restart: must be true or false, not a string",
                    "/etc/ambience/ambience.toml:3: kiosk.colour: unknown key; kiosk takes pipe, restart,"
                        + " restart_delay, restart_delay_max, answer_timeout, stop_timeout, user_data_dir, invert,"
                        + " regular, contrast",
                    "/etc/ambience/ambience.toml:4: kiosk.restart_delay: must be from 0.1 to 3600 seconds, not 0",
                    "/etc/ambience/ambience.toml:6: kiosk.contrast.prefers-contrast: \"loud\" is not a value of"
                        + " prefers-contrast: use \"no-preference\", \"more\", \"less\" or \"custom\"",
                ])
    }

    /// The daemon leaves the table to the kiosk (and `ambience check`, Tests/cli), which checks it.
    @Test func theDaemonTakesAFileWithAKioskTableAndTheKioskChecksIt() throws {
        _ = try Fixture.load(
            Fixture.minimal("[kiosk]\nrestart = true\n[kiosk.regular]\nforced-colors = \"none\"\n"))
        #expect(
            errors(Fixture.minimal("[kiosk]\npipe = \"relative\"\n"))
                == [
                    "/etc/ambience/ambience.toml:4: kiosk.pipe: \"relative\" must be an absolute path (starting with /)"
                ])
    }

    /// The daemon takes the companions' tables as theirs, whatever is in them (the bridge checks
    /// its own, and `ambience check` all of them).
    @Test func theDaemonAcceptsAFileWithAnMQTTTable() throws {
        let daemon = try Fixture.load(Fixture.minimal("[mqtt]\nbroker = 'mqtt://x'\nwhatever = 1\n"))
        #expect(daemon.sensor.kind == .bh1750)
    }
}
