import AmbienceCore
import AmbienceSimulation
import AmbienceSystem
import Testing

@testable import AmbienceOutputs

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct GPIOIndicatorTests {
    let chip = FakeGPIO.Chip(name: "gpiochip0", label: "pinctrl-bcm2711", lineCount: 58)
    let devices: FakeGPIO
    let log = LogRecorder()
    let configuration = GPIOIndicator.Configuration(
        chip: "pinctrl-bcm2711", lines: [.invert: 17, .regular: 27, .contrast: 22], fault: 5)

    init() {
        devices = FakeGPIO(chips: [
            FakeGPIO.Chip(name: "gpiochip1", label: "raspberrypi-exp-gpio", lineCount: 8), chip,
        ])
    }

    func lit() -> [UInt32] { chip.levels.filter(\.value).map(\.key).sorted() }

    @Test func requestsEveryLineOffWithConsumerAmbience() throws {
        let indicator = try GPIOIndicator(configuration, devices: devices, log: log.log)
        defer { indicator.close() }
        #expect(chip.requested == [17: "ambience", 27: "ambience", 22: "ambience", 5: "ambience"])
        #expect(lit().isEmpty)
        #expect(indicator.chipDescription == "gpiochip0 (pinctrl-bcm2711)")
    }

    @Test func lightsTheLineOfTheStateShownTurningTheOldOneOffFirst() throws {
        let indicator = try GPIOIndicator(configuration, devices: devices, log: log.log)
        indicator.deliver(change(.regular, from: nil, at: 1))
        #expect(lit() == [27])
        indicator.deliver(change(.invert, from: .regular, at: 7))
        #expect(lit() == [17])
        #expect(
            chip.history == [
                .init(offset: 27, high: true), .init(offset: 27, high: false), .init(offset: 17, high: true),
            ])
        indicator.deliver(change(.invert, from: .regular, at: 7).asCurrent)
        #expect(chip.history.count == 3)  // nothing to change, nothing set
    }

    @Test func theFaultLineFollowsFaultAndRecovery() throws {
        let indicator = try GPIOIndicator(configuration, devices: devices, log: log.log)
        indicator.deliver(change(.contrast, from: nil, at: 1))
        indicator.deliver(fault(holding: .contrast, at: 6))
        #expect(lit() == [5, 22])
        indicator.deliver(recovered(holding: .contrast, at: 9))
        #expect(lit() == [22])
    }

    @Test func activeLowLinesAreLitByALowLevel() throws {
        var configuration = configuration
        configuration.activeLow = true
        let indicator = try GPIOIndicator(configuration, devices: devices, log: log.log)
        #expect(chip.levels == [17: true, 27: true, 22: true, 5: true])
        indicator.deliver(change(.invert, from: nil, at: 1))
        #expect(chip.levels == [17: false, 27: true, 22: true, 5: true])
        indicator.close()
        #expect(chip.levels == [17: true, 27: true, 22: true, 5: true])
    }

    @Test func closeTurnsEveryLineOffThenReleasesThem() throws {
        let indicator = try GPIOIndicator(configuration, devices: devices, log: log.log)
        indicator.deliver(change(.regular, from: nil, at: 1))
        indicator.deliver(fault(holding: .regular, at: 6))
        indicator.close()
        #expect(lit().isEmpty)
        #expect(chip.requested.isEmpty)
        #expect(devices.openChipCount == 0)
        indicator.close()
        indicator.deliver(change(.invert, from: .regular, at: 9))
        #expect(lit().isEmpty)
    }

    @Test func aBusyLineNamesTheLineAndItsConsumer() throws {
        chip.heldByOthers[22] = "gpio-keys"
        #expect(
            throws: OutputError.lineBusy(
                key: "lines.contrast", chip: "gpiochip0 (pinctrl-bcm2711)", offset: 22,
                consumer: "gpio-keys")
        ) { try GPIOIndicator(configuration, devices: devices, log: log.log) }
        #expect(chip.requested.isEmpty)
        #expect(devices.openChipCount == 0)
        #expect(
            OutputError.lineBusy(key: "fault", chip: "gpiochip0", offset: 5, consumer: "").description
                == "fault: line 5 of gpiochip0 is busy, held by another consumer (unnamed)")
    }

    @Test(arguments: ["pinctrl-bcm2711", "gpiochip0", "/dev/gpiochip0", "0"])
    func theChipIsFoundByLabelNameNumberOrPath(selector: String) throws {
        var configuration = configuration
        configuration.chip = selector
        let indicator = try GPIOIndicator(configuration, devices: devices, log: log.log)
        defer { indicator.close() }
        #expect(chip.requested.count == 4)
        #expect(devices.openChipCount == 1)  // the other chip looked at was closed again
    }

    @Test func aMissingChipIsAConfigurationErrorListingTheChipsPresent() throws {
        var configuration = configuration
        configuration.chip = "pinctrl-rp1"
        let expected = ConfigurationError(
            key: "chip",
            message:
                "no GPIO chip named or labelled 'pinctrl-rp1' (present: gpiochip1 (raspberrypi-exp-gpio), gpiochip0 (pinctrl-bcm2711))"
        )
        #expect(throws: OutputError.configuration(expected)) {
            try GPIOIndicator(configuration, devices: devices, log: log.log)
        }
        configuration.chip = "/dev/gpiochip7"
        #expect(
            throws: OutputError.configuration(
                .init(key: "chip", message: "no GPIO chip at /dev/gpiochip7"))
        ) {
            try GPIOIndicator(configuration, devices: devices, log: log.log)
        }
        #expect(devices.openChipCount == 0)
    }

    @Test func anOffsetOutOfRangeNamesItsKey() throws {
        var configuration = configuration
        configuration.lines[.contrast] = 58
        #expect(
            throws: OutputError.configuration(
                .init(
                    key: "lines.contrast",
                    message: "line 58 is out of range: gpiochip0 (pinctrl-bcm2711) has lines 0–57"))
        ) { try GPIOIndicator(configuration, devices: devices, log: log.log) }
        configuration.lines[.contrast] = 22
        configuration.fault = 100
        #expect(throws: OutputError.self) { try GPIOIndicator(configuration, devices: devices, log: log.log) }
        do {
            _ = try GPIOIndicator(configuration, devices: devices, log: log.log)
        } catch {
            #expect(error.configurationError?.key == "fault")
        }
        #expect(devices.openChipCount == 0)
    }

    @Test func oneLineForTwoRolesIsAConfigurationError() throws {
        var configuration = configuration
        configuration.fault = 27
        #expect(
            throws: OutputError.configuration(
                .init(key: "fault", message: "line 27 already shows regular; a line shows one thing"))
        ) { try GPIOIndicator(configuration, devices: devices, log: log.log) }
    }

    @Test func noPermissionPointsAtTheGPIOGroup() throws {
        devices.openError = .permissionDenied
        do {
            _ = try GPIOIndicator(configuration, devices: devices, log: log.log)
            Issue.record("expected a permission error")
        } catch {
            guard case .permissionDenied(let path, let hint) = error else {
                Issue.record("expected a permission error, got \(error)")
                return
            }
            #expect(path == "/dev/gpiochip1")
            #expect(hint.contains("gpio group"))
        }
    }

    @Test func aFailingLineIsReportedOnceRetriedAndItsRecoveryReportedOnce() throws {
        let indicator = try GPIOIndicator(configuration, devices: devices, log: log.log)
        chip.failingSets = .ioError
        indicator.deliver(change(.regular, from: nil, at: 1))
        for tick in 0..<25 { indicator.poll(now: Double(tick) / 10) }
        indicator.deliver(change(.regular, from: nil, at: 1).asCurrent)
        #expect(log.messages.count == 1)
        #expect(lit().isEmpty)

        chip.failingSets = nil
        indicator.poll(now: 2.4)  // less than a second after the last retry
        #expect(lit().isEmpty)
        indicator.poll(now: 3)
        #expect(lit() == [27])
        #expect(log.messages.count == 2)
        #expect(log.messages.last?.contains("set again") == true)
    }
}
