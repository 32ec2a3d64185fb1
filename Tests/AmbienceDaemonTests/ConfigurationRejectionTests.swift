import AmbienceConfig
import AmbienceDaemon
import AmbienceSensors
import Testing

/// Every refusal names the file, the line and the key, exactly as `ambience check` prints it.
@Suite struct ConfigurationRejectionTests {
    static let file = Fixture.path

    @Test(arguments: [
        (
            "colour = 1",
            "1: colour: unknown key; the top level takes board, state_file, control_pipe, control_mode,"
                + " control_group, state_directory, sensor, filter, thresholds, timing, gpio, pipes, record,"
                + " backlight, display, whitepoint, serve, mqtt, kiosk"
        ),
        (
            "[record]\nflush_interval = 1",
            "2: record.flush_interval: must be 10 to 86400 seconds, not 1: the record is written at most this often"
        ),
        (
            "[record]\nmax_bytes = 10",
            "2: record.max_bytes: must be a size in bytes from 100000 to 2000000000, not 10"
        ),
        (
            "[sensor]\nkind = 'bh1750'\nadress = 0x23",
            "3: sensor.adress: unknown key; sensor takes kind, bus,"
                + " address, interval, force, device, bh1750, tsl2561, veml7700, tsl2591, opt3001,"
                + " tcs34725"
        ),
        (
            "[sensor.bh1750]\ngain = '1x'",
            "2: sensor.bh1750.gain: unknown key; sensor.bh1750 takes mode, mtreg"
        ),
        (
            "[sensor.tsl2561]\nmode = 'high'",
            "2: sensor.tsl2561.mode: unknown key; sensor.tsl2561 takes gain, integration"
        ),
        ("[filter]\nalpha = 0.5", "2: filter.alpha: unknown key; filter takes tau"),
        (
            "[thresholds]\ninvert = 5",
            "2: thresholds.invert: unknown key; thresholds takes invert_regular, regular_contrast"
        ),
        (
            "[thresholds]\ninvert_regular = { fall = 1, rise = 2, mid = 1.5 }",
            "2: thresholds.invert_regular.mid: unknown key; thresholds.invert_regular takes fall, rise"
        ),
        ("[timing]\ndelay = 1", "2: timing.delay: unknown key; timing takes dwell, latency, fault_after"),
        ("[gpio]\npin = 4", "2: gpio.pin: unknown key; gpio takes chip, lines, fault, active_low"),
        (
            "[gpio]\nchip = 'gpiochip0'\nlines = { dark = 4 }",
            "3: gpio.lines.dark: unknown key; gpio.lines takes invert, regular, contrast"
        ),
        ("[pipes]\npath = '/run/x'", "2: pipes.path: unknown key; pipes takes paths, format, mode, group"),
    ])
    func unknownKeysInEveryTable(text: String, expected: String) {
        let text = text.hasPrefix("[sensor]") ? text : text + "\n" + Fixture.minimal()
        #expect(Fixture.errors(text) == ["\(Self.file):\(expected)"])
    }

    @Test(arguments: [
        ("bus = ''", "3: sensor.bus: must not be empty"),
        (
            "bus = '1'",
            "3: sensor.bus: \"1\" is a bus number: write it without quotes (bus = 1); a string names an adapter"
        ),
    ])
    func aBusIsANumberOrAName(line: String, expected: String) {
        #expect(Fixture.errors(Fixture.minimal(line + "\n")) == ["\(Self.file):\(expected)"])
    }

    @Test(arguments: [
        ("sensor = 1", "1: sensor: must be a table, not an integer"),
        ("state_file = 5\n" + Fixture.minimal(), "1: state_file: must be a string, not an integer"),
        ("[sensor]\nkind = 1750", "2: sensor.kind: must be a string, not an integer"),
        (Fixture.minimal("bus = true"), "3: sensor.bus: must be an integer, not a boolean"),
        (Fixture.minimal("bus = 1.0"), "3: sensor.bus: must be an integer, not a float"),
        (Fixture.minimal("address = '0x23'"), "3: sensor.address: must be an integer, not a string"),
        (Fixture.minimal("interval = 'fast'"), "3: sensor.interval: must be a number, not a string"),
        (Fixture.minimal("force = 'yes'"), "3: sensor.force: must be true or false, not a string"),
        (
            Fixture.minimal("[sensor.bh1750]\nmtreg = 69.0"),
            "4: sensor.bh1750.mtreg: must be an integer, not a float"
        ),
        (
            Fixture.minimal("[sensor.tsl2561]\nintegration = '402'"),
            "4: sensor.tsl2561.integration: must be a number, not a string"
        ),
        (Fixture.minimal("[filter]\ntau = true"), "4: filter.tau: must be a number, not a boolean"),
        (
            Fixture.minimal("[thresholds]\ninvert_regular = [20, 50]"),
            "4: thresholds.invert_regular: must be a table, not an array"
        ),
        (Fixture.minimal("[timing]\ndwell = '5s'"), "4: timing.dwell: must be a number, not a string"),
        (Fixture.minimal("[gpio]\nchip = 0"), "4: gpio.chip: must be a string, not an integer"),
        (Fixture.minimal("[gpio]\nchip = 'c'\nlines = 17"), "5: gpio.lines: must be a table, not an integer"),
        (
            Fixture.minimal("[gpio]\nchip = 'c'\nlines = { invert = '17' }"),
            "5: gpio.lines.invert: must be an integer, not a string"
        ),
        (
            Fixture.minimal("[gpio]\nactive_low = 0"),
            "4: gpio.active_low: must be true or false, not an integer"
        ),
        (
            Fixture.minimal("[pipes]\npaths = '/run/x'"),
            "4: pipes.paths: must be an array of paths, like [\"/run/ambience/state\"], not a string"
        ),
        (
            Fixture.minimal("[pipes]\npaths = [\n  '/run/x',\n  7,\n]"),
            "6: pipes.paths[1]: must be a string, not an integer"
        ),
        (Fixture.minimal("[pipes]\nmode = '0660'"), "4: pipes.mode: must be an integer, not a string"),
        (Fixture.minimal("[pipes]\ngroup = 100"), "4: pipes.group: must be a string, not an integer"),
    ])
    func wrongTypes(text: String, expected: String) {
        #expect(Fixture.errors(text) == ["\(Self.file):\(expected)"])
    }

    @Test(arguments: [
        (
            Fixture.minimal("bus = -1"),
            "3: sensor.bus: must be an I2C bus number from 0 to 2147483647, not -1"
        ),
        (
            Fixture.minimal("address = 0x80"),
            "3: sensor.address: must be a 7-bit I2C address from 0x00 to 0x7F, not 0x80"
        ),
        (
            Fixture.minimal("[sensor.bh1750]\nmtreg = 30"),
            "4: sensor.bh1750.mtreg: must be a measurement time (MTreg) from 31 to 254, not 30"
        ),
        (
            Fixture.minimal("[sensor.bh1750]\nmtreg = 255"),
            "4: sensor.bh1750.mtreg: must be a measurement time (MTreg) from 31 to 254, not 255"
        ),
        (
            Fixture.minimal("[sensor.tsl2561]\nintegration = 100"),
            "4: sensor.tsl2561.integration: must be 13.7, 101 or 402 (milliseconds), not 100"
        ),
        (
            Fixture.minimal("[gpio]\nchip = 'c'\nfault = 70000"),
            "5: gpio.fault: must be a line offset from 0 to 65535, not 70000"
        ),
        (
            Fixture.minimal("[gpio]\nchip = 'c'\nlines = { regular = -1 }"),
            "5: gpio.lines.regular: must be a line offset from 0 to 65535, not -1"
        ),
        (
            Fixture.minimal("[pipes]\nmode = 0o1777"),
            "4: pipes.mode: must be permission bits from 0o0 to 0o777, not 0o1777"
        ),
        (
            Fixture.minimal("[pipes]\nmode = -1"),
            "4: pipes.mode: must be permission bits from 0o0 to 0o777, not -0o1"
        ),
        (
            Fixture.minimal("bus = 9223372036854775807"),
            "3: sensor.bus: must be an I2C bus number from 0 to 2147483647, not 9223372036854775807"
        ),
    ])
    func outOfRange(text: String, expected: String) {
        #expect(Fixture.errors(text) == ["\(Self.file):\(expected)"])
    }

    @Test(arguments: [
        (
            "[sensor]\nkind = 'bh1751'",
            "2: sensor.kind: \"bh1751\" is not a sensor kind: use \"bh1750\", \"tsl2561\", \"veml7700\","
                + " \"tsl2591\", \"opt3001\", \"tcs34725\" or \"iio\""
        ),
        (
            Fixture.minimal("[sensor.bh1750]\nmode = 'medium'"),
            "4: sensor.bh1750.mode: \"medium\" is not a BH1750 mode: use \"auto\", \"high\", \"high2\" or \"low\""
        ),
        (
            Fixture.minimal("[sensor.tsl2561]\ngain = '2x'"),
            "4: sensor.tsl2561.gain: \"2x\" is not a TSL2561 gain: use \"auto\", \"1x\" or \"16x\""
        ),
        (
            Fixture.minimal("[pipes]\nformat = 'xml'"),
            "4: pipes.format: \"xml\" is not a pipe format: use \"json\" or \"plain\""
        ),
        (Fixture.minimal("[gpio]\nchip = ''\nfault = 3"), "4: gpio.chip: must not be empty"),
        (
            Fixture.minimal("[pipes]\ngroup = \"kiosk\\u0000\""),
            "4: pipes.group: must not contain a NUL character"
        ),
    ])
    func wordsOutsideTheirChoices(text: String, expected: String) {
        #expect(Fixture.errors(text) == ["\(Self.file):\(expected)"])
    }

    @Test func anAddressMustBeOneTheChipAnswersAt() {
        #expect(
            Fixture.errors("[sensor]\nkind = 'bh1750'\naddress = 0x39") == [
                "\(Self.file):3: sensor.address: 0x39 is not an address of the bh1750, which answers at"
                    + " 0x23 (ADDR low) or 0x5C (ADDR high)"
            ])
        #expect(
            Fixture.errors("[sensor]\naddress = 0x23\nkind = 'tsl2561'") == [
                "\(Self.file):2: sensor.address: 0x23 is not an address of the tsl2561, which answers at"
                    + " 0x29 (ADDR to GND), 0x39 (ADDR floating) or 0x49 (ADDR to VDD)"
            ])
    }

    @Test func anMTregWithAutomaticRangingIsRefusedByTheDriversRule() {
        let message =
            "sensor.bh1750.mtreg: is chosen by automatic ranging when mode = \"auto\"; remove it or choose a mode"
        #expect(
            Fixture.errors(Fixture.minimal("[sensor.bh1750]\nmtreg = 100")) == ["\(Self.file):4: \(message)"])
        #expect(
            Fixture.errors(Fixture.minimal("[sensor.bh1750]\nmode = 'auto'\nmtreg = 100"))
                == ["\(Self.file):5: \(message)"])
        // The board's mode, the file's MTreg: the fault is where the MTreg is.
        #expect(
            Fixture.errors(
                "board = 'b'\n" + Fixture.minimal("[sensor.bh1750]\nmtreg = 100"),
                boards: ["b": "[sensor.bh1750]\nmode = 'auto'\n"]) == ["\(Self.file):5: \(message)"])
        // A mode already refused is not followed by a second fault at the MTreg.
        #expect(Fixture.errors(Fixture.minimal("[sensor.bh1750]\nmode = 'mid'\nmtreg = 100")).count == 1)
    }

    @Test(arguments: [
        (
            Fixture.minimal("[sensor.bh1750]\nmode = 'hres'"),
            "4: sensor.bh1750.mode: \"hres\" is not a BH1750 mode: use \"auto\", \"high\", \"high2\" or \"low\""
        ),
        (
            Fixture.minimal("[sensor.bh1750]\nmode = 'High'"),
            "4: sensor.bh1750.mode: \"High\" is not a BH1750 mode: use \"auto\", \"high\", \"high2\" or \"low\""
        ),
        (
            Fixture.minimal("[sensor.tsl2561]\ngain = '16'"),
            "4: sensor.tsl2561.gain: \"16\" is not a TSL2561 gain: use \"auto\", \"1x\" or \"16x\""
        ),
        (
            Fixture.minimal("[sensor.tsl2561]\nintegration = 13"),
            "4: sensor.tsl2561.integration: must be 13.7, 101 or 402 (milliseconds), not 13"
        ),
    ])
    func theDriversAliasesAreNotTheFilesSpelling(text: String, expected: String) {
        #expect(Fixture.errors(text) == ["\(Self.file):\(expected)"])
    }

    @Test func theSensorKindIsRequired() {
        let message =
            "sensor.kind: required: the light sensor, \"bh1750\", \"tsl2561\", \"veml7700\", \"tsl2591\","
            + " \"opt3001\", \"tcs34725\" or \"iio\""
        #expect(Fixture.errors("") == ["\(Self.file): \(message)"])
        #expect(Fixture.errors("# kiosk\n\n[sensor]\nbus = 1") == ["\(Self.file):3: \(message)"])
    }

    @Test func thresholdsMustBeOrdered() {
        let unordered = Fixture.errors(
            Fixture.minimal("[thresholds]\ninvert_regular = { fall = 50, rise = 20 }"))
        #expect(unordered.count == 1)
        #expect(
            unordered.first?.hasPrefix(
                "\(Self.file):4: thresholds.invert_regular: fall (50.0) must be below rise (20.0)") == true)

        let overlapping = Fixture.errors(
            Fixture.minimal(
                "[thresholds]\ninvert_regular = { fall = 20, rise = 50 }\n\n[thresholds.regular_contrast]\nfall = 40\nrise = 90"
            ))
        #expect(overlapping.count == 1)
        #expect(overlapping.first?.hasPrefix("\(Self.file):7: thresholds.regular_contrast.fall: ") == true)
    }

    @Test func latencyMustAllowTwoDwellsAndASample() {
        let set = Fixture.errors(Fixture.minimal("[timing]\ndwell = 6\nlatency = 12"))
        #expect(set.count == 1)
        #expect(
            set.first?.hasPrefix("\(Self.file):5: timing.latency: L (12.0 s) must be at least 2D + P") == true
        )

        // Latency left to its default: the fault is placed at the table that changed the dwell.
        let defaulted = Fixture.errors(Fixture.minimal("\n[timing]\ndwell = 6"))
        #expect(defaulted.first?.hasPrefix("\(Self.file):4: timing.latency: L (12.0 s)") == true)

        // Nothing in the file about timing at all, only a slower sensor.
        let interval = Fixture.errors(Fixture.minimal("interval = 3"))
        #expect(
            interval.first?.hasPrefix("\(Self.file): timing.latency: L (12.0 s) must be at least") == true)
    }

    @Test func engineRangesArePlacedAtTheirKeys() {
        #expect(
            Fixture.errors(Fixture.minimal("[filter]\ntau = 0")).first?.hasPrefix(
                "\(Self.file):4: filter.tau: ")
                == true)
        #expect(
            Fixture.errors(Fixture.minimal("interval = 0")).first?.hasPrefix(
                "\(Self.file):3: sensor.interval: ")
                == true)
        #expect(
            Fixture.errors(Fixture.minimal("[timing]\nfault_after = 0.1")).first?.hasPrefix(
                "\(Self.file):4: timing.fault_after: ") == true)
        #expect(
            Fixture.errors(Fixture.minimal("[filter]\ntau = nan")).first?.hasPrefix(
                "\(Self.file):4: filter.tau: ")
                == true)
    }

    @Test func linesNeedAChip() {
        #expect(
            Fixture.errors(Fixture.minimal("\n[gpio]\nlines = { invert = 17 }")) == [
                "\(Self.file):4: gpio.chip: required with indicator lines: the chip's name (gpiochip0),"
                    + " path (/dev/gpiochip0) or label (pinctrl-bcm2711)"
            ])
    }

    @Test func aLineShowsOneThing() {
        #expect(
            Fixture.errors(
                Fixture.minimal("[gpio]\nchip = 'c'\nlines = { invert = 17, regular = 17 }\nfault = 17"))
                == [
                    "\(Self.file):5: gpio.lines.regular: line 17 already shows invert; a line shows one thing",
                    "\(Self.file):6: gpio.fault: line 17 already shows invert; a line shows one thing",
                ])
    }

    @Test func pathsMustBeAbsoluteAndDistinct() {
        #expect(
            Fixture.errors(Fixture.minimal("[pipes]\npaths = ['/run/a', 'run/b']")) == [
                "\(Self.file):4: pipes.paths[1]: \"run/b\" must be an absolute path (starting with /)"
            ])
        #expect(
            Fixture.errors("state_directory = 'lib'\n" + Fixture.minimal()) == [
                "\(Self.file):1: state_directory: \"lib\" must be an absolute path (starting with /)"
            ])
        #expect(
            Fixture.errors(Fixture.minimal("[pipes]\npaths = ['/run/ambience/control']")) == [
                "\(Self.file):4: pipes.paths: \"/run/ambience/control\" is already control_pipe"
            ])
        #expect(
            Fixture.errors("state_file = '/run/s'\ncontrol_pipe = '/run/s'\n" + Fixture.minimal()) == [
                "\(Self.file):2: control_pipe: \"/run/s\" is already state_file"
            ])
        #expect(
            Fixture.errors(Fixture.minimal("[pipes]\npaths = ['/run/p', '/run/p']")) == [
                "\(Self.file):4: pipes.paths: \"/run/p\" is already pipes.paths[0]"
            ])
    }

    @Test func everyFaultIsReportedInOneRun() {
        let errors = Fixture.errors(
            """
            [sensor]
            kind = "bh1750"
            bus = 1.5
            address = 0x39

            [thresholds]
            invert_regular = { fall = 60, rise = 50 }

            [timing]
            dwell = 10

            [pipes]
            format = "yaml"
            """)
        #expect(errors.count == 5)
        #expect(
            errors.map { $0.split(separator: ":").prefix(3).joined(separator: ":") } == [
                "\(Self.file):3: sensor.bus",
                "\(Self.file):4: sensor.address",
                "\(Self.file):7: thresholds.invert_regular",
                "\(Self.file):9: timing.latency",
                "\(Self.file):13: pipes.format",
            ])
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(
            Fixture.errors("[sensor]\nkind = bh1750\n") == [
                "\(Self.file):2:8: expected a value, found 'bh1750' (strings need quotes)"
            ])
        #expect(
            Fixture.errors("[sensor]\nkind = 'bh1750'\n[sensor]\n") == [
                "\(Self.file):3:1: table [sensor] is already defined (line 1)"
            ])
    }

    @Test func anUnreadableFileIsAConfigurationError() {
        let files = MemoryFiles(files: [Fixture.path: ""], unreadable: [Fixture.path])
        #expect(
            throws: ConfigFileErrors([
                ConfigFileError(file: Fixture.path, message: "cannot read the file: Permission denied")
            ])
        ) {
            try DaemonConfiguration.load(from: Fixture.path, boardDirectories: [], files: files)
        }
        #expect(
            throws: ConfigFileErrors([
                ConfigFileError(
                    file: "/nowhere.toml", message: "cannot read the file: No such file or directory")
            ])
        ) {
            try DaemonConfiguration.load(from: "/nowhere.toml", boardDirectories: [], files: files)
        }
    }
}

@Suite struct IIOConfigurationTests {
    static let file = Fixture.path

    @Test func aKernelSensorIsNamedAndReadsBack() throws {
        let configuration = try Fixture.load("[sensor]\nkind = 'iio'\ndevice = 'bh1750'\n")
        #expect(
            configuration.sensor.kind == .iio
                && configuration.sensor[IIOLightSensor.Settings.self].device == "bh1750")
        #expect(configuration.tomlText.contains("[sensor]\nkind = \"iio\"\ndevice = \"bh1750\"\ninterval = "))
        #expect(!configuration.tomlText.contains("address ="))
        #expect(try Fixture.load(configuration.tomlText) == configuration)
    }

    @Test(arguments: [
        (
            "[sensor]\nkind = 'iio'\n",
            [
                "1: sensor.device: required with kind = \"iio\": the IIO device's name (\"bh1750\") or its directory"
            ]
        ),
        (
            "[sensor]\nkind = 'iio'\ndevice = 'bh1750'\nbus = 1\naddress = 0x23\n",
            [
                "4: sensor.bus: not used with kind = \"iio\": the kernel driver has the chip, and device names it",
                "5: sensor.address: not used with kind = \"iio\": the kernel driver has the chip, and device names it",
            ]
        ),
        (
            "[sensor]\nkind = 'bh1750'\ndevice = 'bh1750'\n",
            ["3: sensor.device: only for kind = \"iio\", not \"bh1750\""]
        ),
    ])
    func refusals(text: String, expected: [String]) {
        #expect(Fixture.errors(text) == expected.map { "\(Self.file):\($0)" })
    }
}
