import AmbienceI2C
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

@Suite struct ProbeTests {
    @Test func findsAndIdentifiesBothChipsWithAFirstReading() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        bus.attach(TSL2561Emulator(package: .cs) { _ in 120 }, at: 0x49)
        bus.attach(BH1750Emulator { _ in 80 }, at: 0x5C)

        let findings = SensorProbe.scan(bus, clock: clock)

        #expect(findings.map(\.address) == [0x49, 0x5C])
        #expect(findings.allSatisfy { $0.isSensor })
        guard case .tsl2561(let part, let package, let tslReading) = findings[0].outcome else {
            Issue.record("\(findings[0])")
            return
        }
        #expect(part == "TSL2561" && package == .cs)
        #expect(abs(try tslReading.get().lux - 120) < 3)
        guard case .bh1750(let bhReading) = findings[1].outcome else {
            Issue.record("\(findings[1])")
            return
        }
        #expect(abs(try bhReading.get().lux - 80) < 0.5)
    }

    @Test func findsAnOPT3001ByItsIDRegistersAtEachOfItsAddresses() throws {
        for address in OPT3001.addresses {
            let clock = ManualClock()
            let bus = MockI2CBus(clock: clock)
            bus.attach(OPT3001Emulator { _ in 450 }, at: address)

            let findings = SensorProbe.scan(bus, clock: clock)

            #expect(findings.map(\.address) == [address])
            guard case .identified(let chip, _, let reading) = findings.first?.outcome else {
                Issue.record("\(findings)")
                continue
            }
            #expect(chip == "OPT3001")
            #expect(abs(try reading.get().lux - 450) < 1)
        }
    }

    @Test func findsAVEML7700ByItsIDRegister() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        bus.attach(VEML7700Emulator { _ in 200 }, at: 0x10)

        let findings = SensorProbe.scan(bus, clock: clock)

        #expect(findings.map(\.address) == [0x10])
        guard case .identified(let chip, _, let reading) = findings.first?.outcome else {
            Issue.record("\(findings)")
            return
        }
        #expect(chip == "VEML7700")
        #expect(abs(try reading.get().lux - 200) < 4)
    }

    @Test func atTheSharedAddressATSL2591AndATSL2561AreToldApart() throws {
        let clock = ManualClock()
        let newer = MockI2CBus(clock: clock)
        newer.attach(TSL2591Emulator { _ in 300 }, at: 0x29)
        let older = MockI2CBus(clock: clock)
        let tsl2561 = TSL2561Emulator { _ in 300 }
        older.attach(tsl2561, at: 0x29)

        let newerFinding = SensorProbe.scan(newer, clock: clock).first
        let olderFinding = SensorProbe.scan(older, clock: clock).first

        guard case .identified(let chip, _, let reading) = newerFinding?.outcome else {
            Issue.record("\(String(describing: newerFinding))")
            return
        }
        #expect(chip == "TSL2591")
        #expect(abs(try reading.get().lux - 300) < 6)
        guard case .tsl2561(let part, _, _) = olderFinding?.outcome else {
            Issue.record("\(String(describing: olderFinding))")
            return
        }
        #expect(part == "TSL2561")
        #expect(
            tsl2561.protocolViolations.isEmpty, "asking for the TSL2591's ID broke no rule of the TSL2561")
    }

    @Test func atTheSharedAddressATCS34725IsNamedByItsID() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TCS34725Emulator(kelvin: { _ in 2700 }, light: { _ in 300 })
        bus.attach(chip, at: 0x29)
        let finding = SensorProbe.scan(bus, clock: clock).first
        guard case .identified(let name, _, let reading) = finding?.outcome else {
            Issue.record("\(String(describing: finding))")
            return
        }
        #expect(name == "TCS34725")
        #expect(abs(try reading.get().lux - 300) < 300 * 0.09)
        #expect(chip.protocolViolations.isEmpty, "the TSL2591's ID read broke no rule of the TCS34725")
    }

    @Test func somethingElseAtAnOPT3001AddressIsNotTakenForOne() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        // A BH1750 answers plain reads but has no ID registers.
        bus.attach(BH1750Emulator { _ in 1 }, at: 0x44)

        let findings = SensorProbe.scan(bus, clock: clock)

        guard case .unidentified(let what) = findings.first?.outcome else {
            Issue.record("\(findings)")
            return
        }
        #expect(findings.map(\.address) == [0x44])
        #expect(what.contains("not an OPT3001"))
    }

    @Test func explainsAClaimedAddressAndSomethingElseAnswering() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        bus.attach(TSL2561Emulator { _ in 1 }, at: 0x39)
        bus.claim(0x39, byKernelDriver: "tsl2563")
        // A chip at 0x23 whose data does not clear on reset: not a BH1750.
        let impostor = BH1750Emulator { _ in 1 }
        impostor.stuckCounts = 0x1234
        bus.attach(impostor, at: 0x23)

        let findings = SensorProbe.scan(bus, clock: clock)

        #expect(findings.map(\.address) == [0x23, 0x39])
        #expect(!findings.contains { $0.isSensor })
        guard case .unidentified(let what) = findings[0].outcome else {
            Issue.record("\(findings[0])")
            return
        }
        #expect(what.contains("0x1234") && what.contains("not a BH1750"))
        guard case .problem(let error) = findings[1].outcome else {
            Issue.record("\(findings[1])")
            return
        }
        #expect(error.kind == .addressBusy(driver: "tsl2563", device: "mock-0039"))
        let hint = try #require(error.hint)
        #expect(hint.contains("tsl2563") && hint.contains("unbind") && hint.contains("force = true"))
    }

    @Test func anEmptyBusFindsNothing() {
        let clock = ManualClock()
        #expect(SensorProbe.scan(MockI2CBus(clock: clock), clock: clock).isEmpty)
    }

    @Test func aWrongIDIsExplained() {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        // A BH1750 answering at a TSL2561 address gives back its data, not a TSL2561 ID.
        let other = BH1750Emulator { _ in 1 }
        other.stuckCounts = 0xA5A5
        bus.attach(other, at: 0x29)
        let findings = SensorProbe.scan(bus, clock: clock)
        guard case .unidentified(let what)? = findings.first?.outcome else {
            Issue.record("\(findings)")
            return
        }
        #expect(what.contains("0xA5") && what.contains("not a TSL2560/TSL2561"))
    }

    /// What the raspi3b guest met on the real BSC controller: QEMU's TMP105 at 0x49 reads 0x4B at
    /// the ID register's command, a TSL2560's ID, and does not power up as one.
    @Test func anIDThatMatchesByChanceIsNotEnough() {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let other = BH1750Emulator { _ in 1 }
        other.stuckCounts = 0x4800
        bus.attach(other, at: 0x49)
        let findings = SensorProbe.scan(bus, clock: clock)
        #expect(!findings.contains { $0.isSensor })
        guard case .unidentified(let what)? = findings.first?.outcome else {
            Issue.record("\(findings)")
            return
        }
        #expect(what.contains("0x48") && what.contains("TSL2560") && what.contains("CONTROL reads 0x48"))
        #expect(what.hasSuffix("not a TSL2560/TSL2561"))
    }
}

@Suite struct LinuxI2CBusTests {
    @Test func aMissingBusSaysSoWithTheHint() {
        #expect {
            _ = try LinuxI2CBus(number: 250)
        } throws: { error in
            guard let error = error as? I2CError else { return false }
            return error.kind == .busMissing && error.bus == "/dev/i2c-250"
                && error.description.contains("dtparam=i2c_arm=on")
        }
    }

    @Test func aFileThatIsNotAnI2CDeviceIsRefused() {
        // /dev/null opens, but I2C_FUNCS fails on it.
        #expect {
            _ = try LinuxI2CBus(path: "/dev/null")
        } throws: { error in
            guard let error = error as? I2CError, case .unsupported = error.kind else { return false }
            return true
        }
    }

    @Test func errnoMapsToKinds() {
        func kind(_ errno: Errno) -> I2CError.Kind {
            I2CError(transferErrno: errno, bus: "/dev/i2c-1", address: 0x39).kind
        }
        #expect(kind(.noSuchAddressOrDevice) == .notAcknowledged)
        #expect(kind(.remoteIO) == .notAcknowledged)
        #expect(kind(.ioError) == .ioError)
        #expect(kind(.timedOut) == .timedOut)
        #expect(kind(.permissionDenied) == .permissionDenied)
        let denied = I2CError(.permissionDenied, bus: "/dev/i2c-1")
        #expect(denied.description.contains("i2c group") && denied.description.contains("udev/"))
    }
}
