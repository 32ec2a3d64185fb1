import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

/// `[sensor.veml7700]`, `[sensor.tsl2591]` and `[sensor.opt3001]`: read, checked and written back
/// like the BH1750's and TSL2561's tables, and used by the drivers.
@Suite struct ConfigurationChipTablesTests {
    static let file = Fixture.path

    @Test func withoutTheirTablesTheChipsRangeThemselves() throws {
        let sensor = try Fixture.load(Fixture.minimal()).sensor
        #expect(sensor[VEML7700.Settings.self] == .automatic)
        #expect(sensor[TSL2591.Settings.self] == TSL2591.Settings(gain: .automatic, integrationTime: .ms100))
        #expect(sensor[OPT3001.Settings.self] == OPT3001.Settings(range: .automatic, conversionTime: .ms800))
    }

    @Test func everyKeyIsRead() throws {
        let veml = try Fixture.load(
            "[sensor]\nkind = 'veml7700'\n[sensor.veml7700]\ngain = '1/4'\nintegration = 25")
        #expect(veml.sensor.model == SensorModel(VEML7700.Settings(gain: .quarter, integrationTime: .ms25)))
        #expect(veml.sensor.address == 0x10)
        let tsl = try Fixture.load(
            "[sensor]\nkind = 'tsl2591'\n[sensor.tsl2591]\ngain = '9876x'\nintegration = 600")
        #expect(
            tsl.sensor.model == SensorModel(TSL2591.Settings(gain: .fixed(.maximum), integrationTime: .ms600))
        )
        let opt = try Fixture.load(
            "[sensor]\nkind = 'opt3001'\naddress = 0x47\n[sensor.opt3001]\nrange = 11\nintegration = 100")
        #expect(
            opt.sensor.model
                == SensorModel(
                    OPT3001.Settings(range: .fixed(OPT3001.FullScale(number: 11)!), conversionTime: .ms100)))
        #expect(opt.sensor.address == 0x47)
        let tcs = try Fixture.load(
            "[sensor]\nkind = 'tcs34725'\n[sensor.tcs34725]\ngain = '16x'\nintegration = 614")
        #expect(
            tcs.sensor.model == SensorModel(TCS34725.Settings(gain: .fixed(.x16), integrationTime: .ms614)))
        #expect(tcs.sensor.address == 0x29)
    }

    @Test func aFixedVEML7700GainTakesTheChipsOwnIntegrationUnlessGiven() throws {
        let sensor = try Fixture.load("[sensor]\nkind = 'veml7700'\n[sensor.veml7700]\ngain = '2x'").sensor
        #expect(sensor[VEML7700.Settings.self] == VEML7700.Settings(gain: .x2, integrationTime: .ms100))
    }

    @Test func everySpellingIsRead() throws {
        for gain in ["auto", "1/8", "1/4", "1x", "2x"] {
            let expected: VEML7700.Settings =
                gain == "auto"
                ? .automatic : .init(gain: VEML7700.Gain(parsing: gain)!, integrationTime: .ms100)
            let text = Fixture.minimal("[sensor.veml7700]\ngain = '\(gain)'")
            #expect(try Fixture.load(text).sensor[VEML7700.Settings.self] == expected)
        }
        for (index, integration) in [25, 50, 100, 200, 400, 800].enumerated() {
            let text = Fixture.minimal("[sensor.veml7700]\ngain = '1x'\nintegration = \(integration)")
            #expect(
                try Fixture.load(text).sensor[VEML7700.Settings.self]
                    == .init(gain: .x1, integrationTime: VEML7700.IntegrationTime.allCases[index]))
        }
        for gain in TSL2591.GainSetting.configurationChoices {
            let text = Fixture.minimal("[sensor.tsl2591]\ngain = '\(gain)'")
            #expect(try Fixture.load(text).sensor[TSL2591.Settings.self].gain == gain)
        }
        for time in TSL2591.IntegrationTime.allCases {
            let text = Fixture.minimal("[sensor.tsl2591]\nintegration = \(Int(time.milliseconds))")
            #expect(try Fixture.load(text).sensor[TSL2591.Settings.self].integrationTime == time)
        }
        for number in 0...11 {
            let text = Fixture.minimal("[sensor.opt3001]\nrange = \(number)")
            #expect(
                try Fixture.load(text).sensor[OPT3001.Settings.self].range == .fixed(.init(number: number)!))
        }
        let auto = Fixture.minimal("[sensor.opt3001]\nrange = 'auto'\nintegration = 800")
        #expect(try Fixture.load(auto).sensor[OPT3001.Settings.self] == OPT3001.Settings())
    }

    @Test(arguments: [
        (
            "[sensor.veml7700]\nmode = 'auto'",
            "2: sensor.veml7700.mode: unknown key; sensor.veml7700 takes gain, integration"
        ),
        (
            "[sensor.tsl2591]\nrange = 1",
            "2: sensor.tsl2591.range: unknown key; sensor.tsl2591 takes gain, integration"
        ),
        (
            "[sensor.opt3001]\ngain = '1x'",
            "2: sensor.opt3001.gain: unknown key; sensor.opt3001 takes range, integration"
        ),
        ("[sensor]\nveml7700 = 1", "2: sensor.veml7700: must be a table, not an integer"),
    ])
    func unknownKeys(text: String, expected: String) {
        #expect(Fixture.errors(text).contains("\(Self.file):\(expected)"))
    }

    @Test(arguments: [
        ("[sensor.veml7700]\ngain = 2", "4: sensor.veml7700.gain: must be a string, not an integer"),
        (
            "[sensor.veml7700]\ngain = '1x'\nintegration = '100'",
            "5: sensor.veml7700.integration: must be a number, not a string"
        ),
        ("[sensor.tsl2591]\ngain = true", "4: sensor.tsl2591.gain: must be a string, not a boolean"),
        (
            "[sensor.tsl2591]\nintegration = '200'",
            "4: sensor.tsl2591.integration: must be a number, not a string"
        ),
        (
            "[sensor.opt3001]\nrange = 1.5",
            "4: sensor.opt3001.range: must be \"auto\" or a full-scale range number from 0 to 11, not a float"
        ),
        (
            "[sensor.opt3001]\nintegration = '800'",
            "4: sensor.opt3001.integration: must be a number, not a string"
        ),
    ])
    func wrongTypes(text: String, expected: String) {
        #expect(Fixture.errors(Fixture.minimal(text)) == ["\(Self.file):\(expected)"])
    }

    @Test(arguments: [
        (
            "[sensor.veml7700]\ngain = '4x'",
            "4: sensor.veml7700.gain: \"4x\" is not a VEML7700 gain: use \"auto\", \"1/8\", \"1/4\", \"1x\" or \"2x\""
        ),
        (
            // The driver's aliases are not the file's spelling.
            "[sensor.veml7700]\ngain = '0.25'",
            "4: sensor.veml7700.gain: \"0.25\" is not a VEML7700 gain: use \"auto\", \"1/8\", \"1/4\", \"1x\" or \"2x\""
        ),
        (
            "[sensor.veml7700]\ngain = '1x'\nintegration = 300",
            "5: sensor.veml7700.integration: must be 25, 50, 100, 200, 400 or 800 (milliseconds), not 300"
        ),
        (
            "[sensor.veml7700]\nintegration = 100",
            "4: sensor.veml7700.integration: is chosen by automatic ranging when gain = \"auto\"; remove it or"
                + " choose a gain"
        ),
        (
            "[sensor.tsl2591]\ngain = 'max'",
            "4: sensor.tsl2591.gain: \"max\" is not a TSL2591 gain: use \"auto\", \"1x\", \"25x\", \"428x\" or"
                + " \"9876x\""
        ),
        (
            "[sensor.tsl2591]\nintegration = 700",
            "4: sensor.tsl2591.integration: must be 100, 200, 300, 400, 500 or 600 (milliseconds), not 700"
        ),
        (
            "[sensor.opt3001]\nrange = 12",
            "4: sensor.opt3001.range: must be a full-scale range number from 0 to 11, not 12"
        ),
        (
            "[sensor.opt3001]\nrange = 'manual'",
            "4: sensor.opt3001.range: must be \"auto\" or a full-scale range number from 0 to 11, not \"manual\""
        ),
        (
            "[sensor.opt3001]\nintegration = 400",
            "4: sensor.opt3001.integration: must be 100 or 800 (milliseconds), not 400"
        ),
    ])
    func outOfRange(text: String, expected: String) {
        #expect(Fixture.errors(Fixture.minimal(text)) == ["\(Self.file):\(expected)"])
    }

    @Test func aGainAlreadyRefusedDoesNotRefuseTheIntegrationToo() {
        #expect(
            Fixture.errors(Fixture.minimal("[sensor.veml7700]\ngain = 'x'\nintegration = 100")).count == 1)
    }

    @Test func eachTableReadsBackAsTheChosenChip() throws {
        for text in [
            "[sensor]\nkind = 'veml7700'\n[sensor.veml7700]\ngain = '1/8'\nintegration = 800\n",
            "[sensor]\nkind = 'veml7700'\n",
            "[sensor]\nkind = 'tsl2591'\n[sensor.tsl2591]\ngain = '25x'\nintegration = 300\n",
            "[sensor]\nkind = 'opt3001'\naddress = 0x45\n[sensor.opt3001]\nrange = 0\nintegration = 100\n",
            "[sensor]\nkind = 'opt3001'\n",
        ] {
            let configuration = try Fixture.load(text)
            #expect(try Fixture.load(configuration.tomlText) == configuration)
        }
        let text = try Fixture.load(
            "[sensor]\nkind = 'veml7700'\n[sensor.veml7700]\ngain = '1/8'\nintegration = 800\n"
        ).tomlText
        #expect(text.contains("\n[sensor.veml7700]\ngain = \"1/8\"\nintegration = 800\n"))
        #expect(text.contains("\n[sensor.bh1750]   # not used with this sensor kind\n"))
        let opt = try Fixture.load("[sensor]\nkind = 'opt3001'\n[sensor.opt3001]\nrange = 7\n").tomlText
        #expect(opt.contains("\n[sensor.opt3001]\nrange = 7\nintegration = 800\n"))
    }
}

/// A non-default setting in the file reaches the chip: the driver `Assembly.sensor` makes writes it.
@Suite struct ChipSettingsReachTheWireTests {
    func read(_ text: String, emulator: any I2CDeviceEmulator) throws -> (MockI2CBus, Reading) {
        let configuration = try Fixture.load(text)
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        bus.attach(emulator, at: configuration.sensor.address)
        let sensor = Assembly.sensor(configuration.sensor, bus: bus, clock: clock)
        return (bus, try sensor.read(waitingOn: clock))
    }

    @Test func theVEML7700sGainAndIntegration() throws {
        let (bus, reading) = try read(
            "[sensor]\nkind = 'veml7700'\n[sensor.veml7700]\ngain = '1/4'\nintegration = 25",
            emulator: VEML7700Emulator { _ in 300 })
        // ALS_CONF_0 = gain 0b11 << 11 | IT 0b1100 << 6 = 0x1B00, written low byte first.
        #expect(bus.writes.contains { $0.address == 0x10 && $0.bytes == [0x00, 0x00, 0x1B] })
        #expect(reading.settings == "gain 1/4, 25 ms")
    }

    @Test func theTSL2591sGainAndIntegration() throws {
        let (bus, reading) = try read(
            "[sensor]\nkind = 'tsl2591'\n[sensor.tsl2591]\ngain = '25x'\nintegration = 300",
            emulator: TSL2591Emulator { _ in 100 })
        // CONTROL = AGAIN 0b01 << 4 | ATIME 0b010.
        #expect(bus.writes.contains { $0.address == 0x29 && $0.bytes == [0xA1, 0x12] })
        #expect(reading.settings == "gain 25x, 300 ms")
    }

    @Test func theOPT3001sRangeAndConversionTime() throws {
        let (bus, reading) = try read(
            "[sensor]\nkind = 'opt3001'\n[sensor.opt3001]\nrange = 3\nintegration = 100",
            emulator: OPT3001Emulator { _ in 100 })
        // CONFIGURATION = RN 3, CT 0, M continuous, L: 0x3410.
        #expect(bus.writes.contains { $0.address == 0x44 && $0.bytes == [0x01, 0x34, 0x10] })
        #expect(reading.settings == "range 3 (327.6 lx), 100 ms")
    }

    @Test func withoutTheTablesTheDriversRangeThemselves() throws {
        let (_, veml) = try read("[sensor]\nkind = 'veml7700'", emulator: VEML7700Emulator { _ in 300 })
        #expect(veml.settings.hasSuffix(" (auto)"))
        let (_, opt) = try read("[sensor]\nkind = 'opt3001'", emulator: OPT3001Emulator { _ in 300 })
        #expect(opt.settings.contains("(auto), 800 ms"))
    }
}

/// The two lists a chip is registered in agree.
@Suite struct ChipListTests {
    @Test func everyChipOnABusHasAnEmulatorAndEveryEmulatorAChip() {
        let onABus = Chips.all.filter(\.usesBus).map(\.kind)
        #expect(onABus.allSatisfy { ChipEmulators.emulator($0) != nil })
        #expect(ChipEmulators.all.allSatisfy { onABus.contains($0.kind) })
        #expect(Chips.descriptor(ChipEmulators.standIn).usesBus)
    }

    @Test func kindsAreUniqueAndOnlyTheListsAreKinds() {
        let words = SensorKind.allCases.map(\.rawValue)
        #expect(Set(words).count == words.count)
        #expect(words == ["bh1750", "tsl2561", "veml7700", "tsl2591", "opt3001", "tcs34725", "iio"])
        #expect(SensorKind(rawValue: "veml7700") == .veml7700 && SensorKind(rawValue: "veml7701") == nil)
    }

    @Test func aChipsSettingsComeBackOnlyFromItsOwnCaseOfSensorModel() {
        let model = SensorModel.iio(IIOLightSensor.Settings(device: "bh1750"))
        #expect(IIOLightSensor.Settings(model)?.device == "bh1750")
        #expect(BH1750.Settings(model) == nil)
        #expect(model.chip.kind == .iio && model.description == "iio")
    }

    @Test func everyAddressSaysItsPinsAndTheDefaultIsOneOfThem() {
        for chip in Chips.all where chip.usesBus {
            #expect(chip.addresses.allSatisfy { !$0.pins.isEmpty })
            #expect(chip.addressValues.contains(chip.defaultAddress))
        }
    }
}
