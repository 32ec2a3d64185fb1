import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The emulated VEML7700 behaves as the datasheet says, and the driver reads it right across
/// its whole range, ranging without hunting and surviving an unplugged chip.
@Suite struct VEML7700EmulatorTests {
    /// A chip under a lamp, its automatic driver, on a mock bus.
    final class Rig {
        let clock = ManualClock()
        let bus: MockI2CBus
        let lamp: Lamp
        let chip: VEML7700Emulator
        let sensor: VEML7700

        init(lux: Double, settings: VEML7700.Settings = .automatic) {
            bus = MockI2CBus(clock: clock)
            let lamp = Lamp(lux)
            self.lamp = lamp
            chip = VEML7700Emulator { _ in lamp.lux }
            bus.attach(chip, at: 0x10)
            sensor = VEML7700(bus: bus, settings: settings, clock: clock)
        }

        /// Where the automatic ranges put the sensor now.
        var rangeIndex: Int { VEML7700.automaticRanges.firstIndex(of: sensor.range)! }
    }

    /// Within 1 %, or two counts' worth where there are few counts. Light between 1000 lx and
    /// 1075 lx cannot be told apart (the correction jumps over it) and is left out by callers.
    static func isClose(_ reading: Double, to lux: Double, _ range: VEML7700.Range) -> Bool {
        abs(reading - lux) <= lux * 0.01 + 2 * range.luxPerCount
    }

    static func inCorrectionGap(_ lux: Double) -> Bool { lux > 1000 && lux < 1076 }

    // MARK: The chip

    @Test func powersUpShutDownWithTheDatasheetDefaults() {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = VEML7700Emulator { _ in 500 }
        bus.attach(chip, at: 0x10)
        clock.advance(by: 2)

        #expect(chip.isShutDown)
        #expect(chip.configurationRegister == 0x0001)
        #expect((try? bus.readWordData(command: 0x07, from: 0x10)) == 0xC481)
        #expect((try? bus.readWordData(command: 0x04, from: 0x10)) == 0, "nothing converted while shut down")
        #expect((try? bus.readWordData(command: 0x01, from: 0x10)) == 0)
    }

    @Test(arguments: VEML7700.IntegrationTime.allCases)
    func aConversionTakesTheIntegrationTime(integration: VEML7700.IntegrationTime) throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = VEML7700Emulator { _ in 20 }
        bus.attach(chip, at: 0x10)
        let range = VEML7700.Range(gain: .x1, integrationTime: integration)
        let word = range.configuration
        try bus.write([0x00, UInt8(word & 0xFF), UInt8(word >> 8)], to: 0x10)

        clock.advance(by: integration.seconds * 0.99)
        #expect(try bus.readWordData(command: 0x04, from: 0x10) == 0, "not before the integration ends")
        clock.advance(by: integration.seconds * 0.02)
        let counts = try bus.readWordData(command: 0x04, from: 0x10)
        #expect(counts == UInt16((20 / range.luxPerCount).rounded(.down)))
    }

    @Test func aNewConfigurationAppliesFromTheNextIntegration() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = VEML7700Emulator { _ in 10 }
        bus.attach(chip, at: 0x10)
        try bus.write([0x00, 0x00, 0x00], to: 0x10)  // 1x, 100 ms, on
        clock.advance(by: 0.05)
        try bus.write([0x00, 0x00, 0x08], to: 0x10)  // 2x, 100 ms, still on
        clock.advance(by: 0.06)
        #expect(try bus.readWordData(command: 0x04, from: 0x10) == 148, "10 lx at 0.0672: the old gain")
        clock.advance(by: 0.1)
        #expect(try bus.readWordData(command: 0x04, from: 0x10) == 297, "10 lx at 0.0336: the new gain")
    }

    @Test func countsClampAtFullScale() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = VEML7700Emulator { _ in 1000 }
        bus.attach(chip, at: 0x10)
        try bus.write([0x00, 0xC0, 0x08], to: 0x10)  // 2x, 800 ms: full scale is 275 lx
        clock.advance(by: 1)
        #expect(try bus.readWordData(command: 0x04, from: 0x10) == 65_535)
    }

    @Test func writesToReadOnlyRegistersAreViolations() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let chip = VEML7700Emulator { _ in 1 }
        bus.attach(chip, at: 0x10)
        try bus.write([0x04, 0x00, 0x00], to: 0x10)
        try bus.write([0x09, 0x00, 0x00], to: 0x10)
        try bus.write([0x00, 0x00], to: 0x10)
        #expect(chip.protocolViolations.count == 3)
        #expect((try? bus.readWordData(command: 0x07, from: 0x10)) == 0xC481, "ID unchanged")
    }

    @Test func theNonLinearityIsTheCorrectionRunBackwards() {
        for lux in [1100.0, 1658, 5000, 30_000, 120_000] {
            let raw = VEML7700Emulator.uncorrected(lux)
            #expect(raw < lux)
            #expect(abs(VEML7700.corrected(raw) - lux) < lux * 1e-9)
        }
        #expect(VEML7700Emulator.uncorrected(700) == 700)
        #expect(VEML7700Emulator.uncorrected(1050) == 1000)
    }

    // MARK: Driver and chip

    /// 0.1 lx (below that, a count is 4 % of the light) to 140 klx, the datasheet's maximum.
    @Test(arguments: luxGrid + [120_000, 140_000])
    func readsTheLightAcrossTheWholeRange(lux: Double) throws {
        let rig = Rig(lux: lux)
        let reading = try rig.sensor.read(waitingOn: rig.clock)
        #expect(!reading.isSaturated)
        #expect(
            Self.isClose(reading.lux, to: lux, rig.sensor.range), "\(reading.lux) lx at \(rig.sensor.range)")
        #expect(rig.chip.protocolViolations.isEmpty)
    }

    /// 0.1 lx → 140 klx → 0.1 lx in 5 % steps: the sensitivity only ever falls on the way up
    /// and rises on the way down.
    @Test func rangingFollowsARampWithoutHunting() throws {
        let up = (0...290).map { 0.1 * pow(1.05, Double($0)) }
        let rig = Rig(lux: up[0])
        var indices: [Int] = []
        for (step, lux) in (up + up.reversed()).enumerated() {
            rig.lamp.lux = lux
            rig.clock.advance(by: 1)
            let reading = try rig.sensor.read(waitingOn: rig.clock)
            indices.append(rig.rangeIndex)
            #expect(!reading.isSaturated, "step \(step)")
            if !Self.inCorrectionGap(lux) {
                #expect(
                    Self.isClose(reading.lux, to: lux, rig.sensor.range), "step \(step): \(reading.lux) lx")
            }
        }
        let climb = Array(indices[..<up.count])
        let descent = Array(indices[up.count...])
        #expect(zip(climb, climb.dropFirst()).allSatisfy { $0 <= $1 }, "\(climb)")
        #expect(zip(descent, descent.dropFirst()).allSatisfy { $0 >= $1 }, "\(descent)")
        #expect(indices.first == 0 && indices.last == 0)
        #expect(climb.last == VEML7700.automaticRanges.count - 1)
    }

    /// ±25 % around levels across the range, some near the band's edges for the start range.
    @Test(arguments: [0.5, 3, 40, 56, 300, 2000, 5200, 20_000, 80_000])
    func aWobbleOf25PercentNeverSwitchesBackAndForth(level: Double) throws {
        let rig = Rig(lux: level)
        _ = try rig.sensor.read(waitingOn: rig.clock)
        var visited = [rig.rangeIndex]
        for step in 0..<200 {
            // Alternating extremes, with a slow drift between them.
            let swing = step % 2 == 0 ? 1.25 : 0.75
            rig.lamp.lux = level * (swing - 0.1 * sin(Double(step) / 7) * (swing - 1))
            rig.clock.advance(by: 1)
            let reading = try rig.sensor.read(waitingOn: rig.clock)
            #expect(!reading.isSaturated)
            if rig.rangeIndex != visited.last { visited.append(rig.rangeIndex) }
        }
        #expect(Set(visited).count == visited.count, "ranges visited: \(visited)")
        #expect(visited.count <= 2, "at most one settling switch: \(visited)")
    }

    @Test func unpluggedThenReplugged() throws {
        let rig = Rig(lux: 300)
        _ = try rig.sensor.read(waitingOn: rig.clock)
        let configured = rig.chip.configurationRegister
        rig.bus.unplug(0x10)
        rig.clock.advance(by: 1)

        let error = VEML7700WireTests.failure { _ = try rig.sensor.read(waitingOn: rig.clock) }
        guard case .bus(let busError) = error?.kind else {
            Issue.record("expected a bus error, got \(String(describing: error))")
            return
        }
        #expect(busError.kind == .notAcknowledged)
        #expect(error?.sensor == "VEML7700 at mock-i2c 0x10")

        rig.bus.replug(0x10)
        #expect(rig.chip.isShutDown, "replugged, the chip is back at its defaults")
        rig.clock.advance(by: 10)
        let reading = try rig.sensor.read(waitingOn: rig.clock)
        #expect(Self.isClose(reading.lux, to: 300, rig.sensor.range))
        #expect(rig.chip.configurationRegister == configured)
        #expect(rig.chip.protocolViolations.isEmpty)
    }

    @Test func aPowerLossBetweenReadsIsNoticedByTheMarker() throws {
        let rig = Rig(lux: 300)
        _ = try rig.sensor.read(waitingOn: rig.clock)
        rig.clock.advance(by: 1)
        rig.chip.powerOnReset(at: rig.clock.now)

        let reading = try rig.sensor.read(waitingOn: rig.clock)

        #expect(!rig.chip.isShutDown)
        #expect(Self.isClose(reading.lux, to: 300, rig.sensor.range), "\(reading.lux)")
    }
}
