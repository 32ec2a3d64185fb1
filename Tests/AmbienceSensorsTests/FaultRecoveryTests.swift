import AmbienceCore
import AmbienceI2C
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

/// Every injected fault is survived: glitches are retried within the read, a chip that stays
/// away is backed off from, and a chip that comes back is initialised again.
@Suite struct FaultRecoveryTests {
    /// One emulated chip of each kind under 300 lux, with its driver, on one mock bus.
    final class Rig {
        let clock = ManualClock()
        let bus: MockI2CBus
        let tslChip = TSL2561Emulator(package: .tFnCl) { _ in 300 }
        let bhChip = BH1750Emulator { _ in 300 }
        let tsl: TSL2561
        let bh: BH1750

        init() throws {
            bus = MockI2CBus(clock: clock)
            bus.attach(tslChip, at: 0x39)
            bus.attach(bhChip, at: 0x23)
            tsl = TSL2561(bus: bus, address: 0x39, settings: .init(integrationTime: .ms101), clock: clock)
            bh = BH1750(
                bus: bus, address: 0x23, settings: try .init(mode: .fixed(.high), measurementTime: 138),
                clock: clock)
        }

        var sensors: [(any LightSensor, I2CAddress)] { [(tsl, 0x39), (bh, 0x23)] }

        /// Both chips hold the settings their drivers gave them.
        func chipsAreConfigured() -> Bool {
            tslChip.isPoweredUp && tslChip.timingRegister == 0x11 && bhChip.continuousMode == .high
                && bhChip.activeMeasurementTime == 138
        }
    }

    static func isAbout300(_ reading: Reading) -> Bool {
        !reading.isSaturated && abs(reading.lux - 300) < 300 * 0.02
    }

    /// The error a read throws, nil when it succeeds. (`#require(throws:)` returns the error only
    /// from Swift 6.1 on; Debian trixie's Swift is 6.0.3.)
    /// (The closure's type is untyped: 6.0.3 does not infer a closure's thrown type.)
    static func failure(_ read: () throws -> Reading) -> SensorError? {
        do {
            _ = try read()
            return nil
        } catch {
            return error as? SensorError
        }
    }

    @Test(arguments: [InjectedFault.notAcknowledged, .ioError, .timedOut])
    func aGlitchIsRetriedWithinTheRead(fault: InjectedFault) throws {
        let rig = try Rig()
        for (sensor, address) in rig.sensors {
            _ = try sensor.read(waitingOn: rig.clock)
            rig.clock.advance(by: 1)
            rig.bus.injectFault(fault, at: address, count: 2)

            let reading = try sensor.read(waitingOn: rig.clock)

            #expect(Self.isAbout300(reading), "\(sensor.description)")
        }
        #expect(rig.chipsAreConfigured())
        #expect(rig.tslChip.protocolViolations.isEmpty && rig.bhChip.protocolViolations.isEmpty)
    }

    @Test(arguments: [InjectedFault.notAcknowledged, .ioError, .timedOut])
    func aLastingFaultIsReportedThenBackedOffThenRecoveredFrom(fault: InjectedFault) throws {
        let rig = try Rig()
        for (sensor, address) in rig.sensors {
            _ = try sensor.read(waitingOn: rig.clock)
            rig.bus.setLastingFault(fault, at: address)

            let failure = try #require(Self.failure { try sensor.read(waitingOn: rig.clock) })
            guard case .bus(let busError) = failure.kind else {
                Issue.record("\(failure)")
                continue
            }
            switch fault {
            case .notAcknowledged: #expect(busError.kind == .notAcknowledged)
            case .ioError: #expect(busError.kind == .ioError)
            case .timedOut: #expect(busError.kind == .timedOut)
            }
            #expect(busError.address == address)
            #expect(failure.retryAt == nil)

            // Backing off: a read before the cooldown ends fails at once, without bus traffic.
            let transfers = rig.bus.transferCounts[address]
            let second = try #require(Self.failure { try sensor.read(waitingOn: rig.clock) })
            #expect(second.retryAt != nil)
            #expect(rig.bus.transferCounts[address] == transfers)

            rig.bus.setLastingFault(nil, at: address)
            rig.clock.advance(by: 10)
            #expect(Self.isAbout300(try sensor.read(waitingOn: rig.clock)), "\(sensor.description)")
        }
        #expect(rig.chipsAreConfigured())
    }

    @Test func theCooldownDoublesUpToItsCeiling() throws {
        let rig = try Rig()
        rig.bus.unplug(0x39)
        var cooldowns: [Double] = []
        for _ in 0..<8 {
            let start = rig.clock.now
            let error = try #require(Self.failure { try rig.tsl.read(waitingOn: rig.clock) })
            _ = error
            let blocked = try #require(Self.failure { try rig.tsl.read(waitingOn: rig.clock) })
            let retryAt = try #require(blocked.retryAt)
            cooldowns.append(((retryAt - start) * 1000).rounded() / 1000)
            rig.clock.sleep(until: retryAt)
        }
        // The retries within each read take 5 + 10 ms before the cooldown starts.
        #expect(cooldowns == [0.265, 0.515, 1.015, 2.015, 4.015, 8.015, 8.015, 8.015])
    }

    @Test func anUnpluggedChipIsInitialisedAgainWhenReplugged() throws {
        let rig = try Rig()
        for (sensor, address) in rig.sensors {
            _ = try sensor.read(waitingOn: rig.clock)
            rig.bus.unplug(address)
            #expect(throws: SensorError.self) { try sensor.read(waitingOn: rig.clock) }
            rig.clock.advance(by: 30)
            #expect(throws: SensorError.self) { try sensor.read(waitingOn: rig.clock) }

            rig.bus.replug(address)
            rig.clock.advance(by: 30)
            let reading = try sensor.read(waitingOn: rig.clock)

            #expect(Self.isAbout300(reading), "\(sensor.description): \(reading)")
        }
        #expect(rig.chipsAreConfigured(), "settings lost in the replug were sent again")
    }

    @Test func aReplugBetweenTwoReadsIsNoticedAndRepaired() throws {
        let rig = try Rig()
        for (sensor, address) in rig.sensors {
            _ = try sensor.read(waitingOn: rig.clock)
            rig.clock.advance(by: 1)
            // Out and back before the driver looked: no error ever reaches it.
            rig.bus.unplug(address)
            rig.bus.replug(address)
            rig.clock.advance(by: 1)

            let reading = try sensor.read(waitingOn: rig.clock)

            #expect(Self.isAbout300(reading), "\(sensor.description): \(reading)")
        }
        #expect(rig.chipsAreConfigured())
    }

    @Test func aReplugInTheDarkIsRepairedByTheTimeTheLightReturns() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        var light = 0.0
        let chip = BH1750Emulator { _ in light }
        bus.attach(chip, at: 0x23)
        let sensor = BH1750(bus: bus, settings: try .init(mode: .fixed(.high2)), clock: clock)
        _ = try sensor.read(waitingOn: clock)
        bus.unplug(0x23)
        bus.replug(0x23)
        for _ in 0..<3 {
            clock.advance(by: 1)
            #expect(try sensor.read(waitingOn: clock).lux == 0)
        }
        light = 50
        clock.advance(by: 1)

        let reading = try sensor.read(waitingOn: clock)

        #expect(abs(reading.lux - 50) < 1)
        #expect(chip.continuousMode == .high2)
    }

    @Test func aStuckTSL2561IsSurvivedAndFollowedAgainOnceFree() throws {
        let rig = try Rig()
        _ = try rig.tsl.read(waitingOn: rig.clock)
        rig.tslChip.stuckCounts = (channel0: 0xFFFF, channel1: 0xFFFF)
        rig.clock.advance(by: 1)

        let stuckHigh = try rig.tsl.read(waitingOn: rig.clock)

        #expect(stuckHigh.isSaturated, "all ones reads as saturated, never as 0 lux")
        #expect(stuckHigh.lux > 0)
        #expect(rig.tsl.gain == .x1)

        rig.tslChip.stuckCounts = (channel0: 0, channel1: 0)
        rig.clock.advance(by: 1)
        let stuckLow = try rig.tsl.read(waitingOn: rig.clock)
        #expect(stuckLow.lux == 0 && !stuckLow.isSaturated)

        rig.tslChip.stuckCounts = nil
        rig.clock.advance(by: 1)
        #expect(Self.isAbout300(try rig.tsl.read(waitingOn: rig.clock)))
        #expect(rig.tsl.gain == .x16, "automatic gain came back from its excursion")
    }

    @Test func aStuckBH1750IsSurvivedAndFollowedAgainOnceFree() throws {
        let rig = try Rig()
        _ = try rig.bh.read(waitingOn: rig.clock)
        rig.bhChip.stuckCounts = 0xFFFF
        rig.clock.advance(by: 1)
        let stuckHigh = try rig.bh.read(waitingOn: rig.clock)
        #expect(stuckHigh.isSaturated && stuckHigh.lux > 0)

        rig.bhChip.stuckCounts = 0
        rig.clock.advance(by: 1)
        #expect(try rig.bh.read(waitingOn: rig.clock).lux == 0)

        rig.bhChip.stuckCounts = nil
        rig.clock.advance(by: 1)
        #expect(Self.isAbout300(try rig.bh.read(waitingOn: rig.clock)))
        #expect(rig.bhChip.continuousMode == .high && rig.bhChip.activeMeasurementTime == 138)
    }

    @Test func aSensorThatWasNeverThereStartsWorkingWhenPluggedIn() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let sensor = TSL2561(bus: bus, address: 0x49, clock: clock)
        #expect(throws: SensorError.self) { try sensor.read(waitingOn: clock) }
        bus.attach(TSL2561Emulator(package: .cs) { _ in 300 }, at: 0x49)
        clock.advance(by: 1)

        let reading = try sensor.read(waitingOn: clock)

        #expect(abs(reading.lux - 300) < 6)
        #expect(sensor.package == .cs)
    }
}
