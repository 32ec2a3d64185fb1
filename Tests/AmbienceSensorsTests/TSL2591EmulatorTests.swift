import AmbienceCore
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The emulated TSL2591 alone, then with the driver: over its whole range, on ramps, under
/// wobbling light, and through an unplug.
@Suite struct TSL2591EmulatorTests {
    final class Rig {
        let clock = ManualClock()
        let bus: MockI2CBus
        let lamp: Lamp
        let chip: TSL2591Emulator
        let sensor: TSL2591

        init(lux: Double, settings: TSL2591.Settings = .init(), stretch: Double = 1) {
            bus = MockI2CBus(clock: clock)
            let lamp = Lamp(lux)
            self.lamp = lamp
            chip = TSL2591Emulator(infraredRatio: 0.3, integrationStretch: stretch) { _ in lamp.lux }
            bus.attach(chip, at: 0x29)
            sensor = TSL2591(bus: bus, settings: settings, clock: clock)
        }
    }

    /// Within 1 %, or three counts' worth at the gain in use where there are few counts.
    static func isClose(
        _ reading: Reading, to lux: Double, gain: TSL2591.Gain, integration: TSL2591.IntegrationTime
    )
        -> Bool
    {
        let luxPerCount = TSL2591Reference.luxPerCount(
            gainIndex: gain.rawValue, milliseconds: integration.milliseconds)
        return !reading.isSaturated && abs(reading.lux - lux) <= lux * 0.01 + 3 * luxPerCount
    }

    // MARK: The chip alone

    @Test func powerOnDefaultsReadBackOverTheBus() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TSL2591Emulator { _ in 100 }
        bus.attach(chip, at: 0x29)
        let block = try bus.writeThenRead([0xA0], readCount: 2, address: 0x29)
        #expect(block == [0x00, 0x00], "ENABLE 0x00, CONTROL 0x00 (1x, 100 ms)")
        #expect(try bus.readByteData(command: 0xB2, from: 0x29) == 0x50)
        clock.advance(by: 1)
        #expect(
            try bus.writeThenRead([0xB3], readCount: 5, address: 0x29) == [0, 0, 0, 0, 0],
            "off: nothing converted")
        #expect(chip.protocolViolations.isEmpty)
    }

    @Test func aConversionTakesTheIntegrationTimeAndSetsAVALID() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TSL2591Emulator(infraredRatio: 0.3) { _ in 100 }
        bus.attach(chip, at: 0x29)
        try bus.writeByteData(command: 0xA1, value: 0x12, to: 0x29)  // 25x, 300 ms
        try bus.writeByteData(command: 0xA0, value: 0x03, to: 0x29)
        clock.advance(by: 0.299)
        #expect(try bus.readByteData(command: 0xB3, from: 0x29) & 0x01 == 0)
        clock.advance(by: 0.002)
        #expect(try bus.readByteData(command: 0xB3, from: 0x29) & 0x01 == 1)
        // 100 lux × 300 × 25 / 408 / 0.49 = 3751.2 counts.
        #expect(chip.channelCounts.channel0 == 3751)
        #expect(chip.channelCounts.channel1 == 1125)
        // Dropping AEN clears AVALID; a new CONTROL (1x) holds from the integration after.
        try bus.writeByteData(command: 0xA0, value: 0x01, to: 0x29)
        #expect(try bus.readByteData(command: 0xB3, from: 0x29) & 0x01 == 0)
        try bus.writeByteData(command: 0xA1, value: 0x02, to: 0x29)
        try bus.writeByteData(command: 0xA0, value: 0x03, to: 0x29)
        clock.advance(by: 0.301)
        _ = try bus.readByteData(command: 0xB3, from: 0x29)
        #expect(chip.channelCounts.channel0 == 150)
        #expect(chip.protocolViolations.isEmpty)
    }

    @Test(arguments: TSL2591.IntegrationTime.allCases)
    func countsClampAtTheIntegrationsFullScale(integration: TSL2591.IntegrationTime) throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TSL2591Emulator { _ in 1e7 }
        bus.attach(chip, at: 0x29)
        try bus.writeByteData(command: 0xA1, value: 0x30 | UInt8(integration.rawValue), to: 0x29)
        try bus.writeByteData(command: 0xA0, value: 0x03, to: 0x29)
        clock.advance(by: integration.seconds + 0.001)
        #expect(try bus.readByteData(command: 0xB3, from: 0x29) == 0x01)
        let expected: UInt16 = integration == .ms100 ? 37888 : 65535
        #expect(chip.channelCounts.channel0 == expected)
        #expect(chip.channelCounts.channel1 == expected)
    }

    @Test func ruleBreaksAreRecordedAndSoftwareResetRestoresDefaults() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = TSL2591Emulator { _ in 10 }
        bus.attach(chip, at: 0x29)
        try bus.write([0x01, 0x10], to: 0x29)
        try bus.write([0x81, 0x10], to: 0x29)
        try bus.write([0xB2, 0x00], to: 0x29)
        #expect(chip.protocolViolations.count == 3)
        try bus.writeByteData(command: 0xA1, value: 0x25, to: 0x29)
        try bus.writeByteData(command: 0xA0, value: 0x03, to: 0x29)
        #expect(chip.controlRegister == 0x25 && chip.isRunning)
        try bus.writeByteData(command: 0xA1, value: 0x80, to: 0x29)
        #expect(chip.controlRegister == 0x00 && chip.enableRegister == 0x00)
    }

    // MARK: With the driver

    /// 0.1 lux up to what 1x still reads, then beyond, six steps a decade.
    static let levels: [Double] = (0...30).map { pow(10, -1 + Double($0) / 6) }

    @Test(arguments: TSL2591.IntegrationTime.allCases)
    func automaticGainReadsFromATenthOfALuxToSaturation(integration: TSL2591.IntegrationTime) throws {
        // What 1x reads before the 90 % step-down threshold, for daylight's infrared share.
        let top = 0.9 * Double(integration.saturationCount) * 0.49 * 408 / integration.milliseconds
        var measured = 0
        for light in Self.levels {
            let rig = Rig(lux: light, settings: .init(integrationTime: integration))
            _ = try rig.sensor.read(waitingOn: rig.clock)
            rig.clock.advance(by: 1)
            let reading = try rig.sensor.read(waitingOn: rig.clock)
            if light < top {
                measured += 1
                #expect(
                    Self.isClose(reading, to: light, gain: rig.sensor.gain, integration: integration),
                    "\(light) lux read \(reading.lux) at \(rig.sensor.gain)")
            } else if reading.isSaturated {
                #expect(reading.lux > 0 && reading.lux <= light, "\(light) lux: a lower bound")
                #expect(rig.sensor.gain == .low)
            } else {
                #expect(Self.isClose(reading, to: light, gain: rig.sensor.gain, integration: integration))
            }
            #expect(rig.chip.protocolViolations.isEmpty)
        }
        #expect(measured >= 25, "0.1 lux to \(top) lux")
    }

    @Test func farBeyondTheRangeIsFlaggedSaturated() throws {
        let rig = Rig(lux: 500_000)
        let reading = try rig.sensor.read(waitingOn: rig.clock)
        #expect(reading.isSaturated)
        #expect(reading.lux > 10_000 && reading.lux < 500_000)
        #expect(reading.settings == "gain 1x (auto), 100 ms, saturated")
    }

    /// 0.1 → 70 000 → 0.1 lux in 5 % steps, each reached before the next read.
    static let ramp: [Double] = {
        let up = (0...276).map { 0.1 * pow(1.05, Double($0)) }
        return up + up.reversed()
    }()

    @Test(arguments: [TSL2591.IntegrationTime.ms100, .ms300])
    func gainSettlesOnceEachWayOverARamp(integration: TSL2591.IntegrationTime) throws {
        let rig = Rig(lux: Self.ramp[0], settings: .init(integrationTime: integration))
        let top = 0.9 * Double(integration.saturationCount) * 0.49 * 408 / integration.milliseconds
        var gains: [TSL2591.Gain] = []
        var switchLux: [String: Double] = [:]
        for (index, lux) in Self.ramp.enumerated() {
            rig.lamp.lux = lux
            rig.clock.advance(by: 1)
            let reading = try rig.sensor.read(waitingOn: rig.clock)
            let gain = rig.sensor.gain
            if let last = gains.last, last != gain {
                switchLux["\(last)→\(gain)"] = lux
            }
            gains.append(gain)
            if lux < top {
                #expect(
                    Self.isClose(reading, to: lux, gain: gain, integration: integration),
                    "step \(index): \(lux) lux read \(reading.lux)")
            }
        }
        let half = Self.ramp.count / 2
        let up = gains[..<half]
        let down = gains[half...]
        #expect(zip(up, up.dropFirst()).allSatisfy { $0 >= $1 }, "rising light never raises the gain")
        #expect(zip(down, down.dropFirst()).allSatisfy { $0 <= $1 }, "falling light never lowers it")
        let switches = zip(gains, gains.dropFirst()).filter { $0 != $1 }.count
        #expect(switches == 6, "\(switchLux)")
        #expect(gains.first == .maximum && gains.last == .maximum)
        for (higher, lower) in [(TSL2591.Gain.maximum, TSL2591.Gain.high), (.high, .medium), (.medium, .low)]
        {
            guard let leave = switchLux["\(higher)→\(lower)"] else { continue }
            let back = try #require(switchLux["\(lower)→\(higher)"])
            #expect(leave > 2 * back, "\(higher) left at \(leave) lux, back below \(back) lux")
        }
    }

    @Test(arguments: [TSL2591.Gain.maximum, .high, .medium])
    func lightWobblingBy25PercentNeverSwitchesBackAndForth(higher: TSL2591.Gain) throws {
        // The middle of the band: C0 at 60 % of saturation at the higher gain.
        let ceiling = Double(TSL2591.IntegrationTime.ms100.saturationCount)
        let centre = 0.6 * ceiling * 0.49 * 408 / (100 * higher.factor)
        for start in [centre / 3, centre * 3] {
            let rig = Rig(lux: start)
            for _ in 0..<3 {
                rig.clock.advance(by: 1)
                _ = try rig.sensor.read(waitingOn: rig.clock)
            }
            let gain = rig.sensor.gain
            #expect(gain == (start < centre ? higher : TSL2591.Gain(rawValue: higher.rawValue - 1)))
            for step in 0..<200 {
                rig.lamp.lux = centre * (1 + 0.25 * sin(Double(step)))
                rig.clock.advance(by: 1)
                _ = try rig.sensor.read(waitingOn: rig.clock)
                #expect(rig.sensor.gain == gain, "step \(step) from \(start) lux")
            }
        }
    }

    @Test func unpluggedThenReplugged() throws {
        let rig = Rig(lux: 30, settings: .init(gain: .fixed(.high), integrationTime: .ms200))
        #expect(
            Self.isClose(try rig.sensor.read(waitingOn: rig.clock), to: 30, gain: .high, integration: .ms200)
        )
        rig.bus.unplug(0x29)
        rig.clock.advance(by: 1)
        #expect(throws: SensorError.self) { _ = try rig.sensor.read(waitingOn: rig.clock) }
        rig.bus.replug(0x29)
        #expect(rig.chip.enableRegister == 0x00 && rig.chip.controlRegister == 0x00)
        rig.clock.advance(by: 10)

        let reading = try rig.sensor.read(waitingOn: rig.clock)

        #expect(Self.isClose(reading, to: 30, gain: .high, integration: .ms200))
        #expect(rig.chip.enableRegister == 0x03 && rig.chip.controlRegister == 0x21)
        #expect(rig.chip.protocolViolations.isEmpty)
    }

    @Test func aPowerLossBetweenReadsIsNoticedAndTheChipSetUpAgain() throws {
        let rig = Rig(lux: 2, settings: .init(gain: .fixed(.maximum), integrationTime: .ms100))
        _ = try rig.sensor.read(waitingOn: rig.clock)
        rig.bus.unplug(0x29)
        rig.bus.replug(0x29)
        rig.clock.advance(by: 1)

        let reading = try rig.sensor.read(waitingOn: rig.clock)

        #expect(Self.isClose(reading, to: 2, gain: .maximum, integration: .ms100))
        #expect(rig.chip.enableRegister == 0x03 && rig.chip.controlRegister == 0x30)
    }

    @Test func aSlowOscillatorIsWaitedForThroughAVALID() throws {
        let rig = Rig(
            lux: 1000, settings: .init(gain: .fixed(.medium), integrationTime: .ms100), stretch: 1.2)
        let reading = try rig.sensor.read(waitingOn: rig.clock)
        #expect(Self.isClose(reading, to: 1000, gain: .medium, integration: .ms100))
        #expect(rig.clock.now >= 0.12)
    }
}
