import AmbienceCore
import AmbienceTestSupport
import Testing

struct EngineStartupTests {
    @Test func firstValidSampleSetsTheStateAtOnceWithoutAnimation() {
        let steps = run([Sample(time: 0, lux: nil), Sample(time: 0.5, lux: 2000)], testConfiguration())
        #expect(steps[0].events.isEmpty)
        #expect(
            steps[1].events == [
                Event(
                    kind: .change, state: .contrast, previous: nil, animated: false, reason: .startup,
                    lux: 2000,
                    filtered: 2000, time: 0.5)
            ])
    }

    @Test(arguments: [(15.0, AmbienceState.regular), (700, .regular), (5, .invert)])
    func startupInsideAHysteresisBandPicksRegular(lux: Double, expected: AmbienceState) {
        let steps = run([Sample(time: 0, lux: lux)], testConfiguration())
        #expect(steps[0].stateAfter == expected)
    }

    @Test func laterChangesAreAnimated() {
        let steps = run(trace(to: 20, every: 1) { $0 < 5 ? 5 : 300 }, testConfiguration())
        #expect(steps.changes.map(\.animated) == [false, true])
    }
}

struct EngineDwellAndEvidenceTests {
    @Test func switchNeedsDOfRawEvidence() {
        // invert until t = 10, then a clear regular level; D = 5: evidence from 10, switch at 15.
        let steps = run(trace(to: 30, every: 1) { $0 < 10 ? 5 : 300 }, testConfiguration(dwell: 5))
        let light = steps.changes.filter { $0.reason == .light }
        #expect(light.map(\.time) == [15])
        #expect(light.first?.state == .regular && light.first?.previous == .invert)
    }

    @Test func interruptedEvidenceStartsAgain() {
        // One dark sample at t = 13 breaks the run of regular evidence that began at 10.
        let steps = run(
            trace(to: 30, every: 1) { $0 < 10 || $0 == 13 ? 5 : 300 }, testConfiguration(tau: 100))
        #expect(steps.changes.filter { $0.reason == .light }.map(\.time) == [19])
    }

    @Test func dwellHoldsTheNextSwitch() {
        // Startup at 0 in regular; dark from 1: evidence complete at 6 with D = 5 and dwell since 0 over.
        // Bright from 7: evidence complete at 12, and 12 - 6 >= D.
        let steps = run(
            trace(to: 30, every: 1) { $0 == 0 ? 300 : $0 < 7 ? 1 : 300 },
            testConfiguration(tau: 0.1, dwell: 5))
        #expect(steps.changes.map(\.time) == [0, 6, 12])
        #expect(steps.changes.map(\.state) == [.regular, .invert, .regular])
    }

    @Test func dwellCountsFromStartup() {
        // Startup in invert at 0; regular light from 0.5 on: evidence is complete at 5.5, dwell at 5.
        let steps = run(
            trace(to: 10, every: 0.5) { $0 == 0 ? 1 : 300 },
            testConfiguration(tau: 0.1, dwell: 5, interval: 0.5))
        #expect(steps.changes.map(\.time) == [0, 5.5])
    }

    @Test func jumpsOverABandInOneSwitch() {
        let steps = run(trace(to: 20, every: 1) { $0 < 3 ? 1 : 50_000 }, testConfiguration())
        #expect(steps.changes.map(\.state) == [.invert, .contrast])
        #expect(steps.changes.last?.previous == .invert)
    }

    @Test func filteredEvidenceSwitchesWhenRawNoiseStraddlesTheThreshold() {
        // Raw alternates 15 and 45 around rise(invert|regular) = 20: raw evidence never lasts,
        // but the filtered value (≈30) stays above the rise; the switch comes at a raw sample that agrees.
        let steps = run(
            trace(to: 40, every: 1) { $0 < 1 ? 1 : (Int($0) % 2 == 0 ? 15 : 45) }, testConfiguration(tau: 2))
        let light = steps.changes.filter { $0.reason == .light }
        #expect(light.count == 1)
        #expect(light.first?.state == .regular)
        #expect(light.first?.lux == 45)
    }

    @Test func filteredEvidenceNeedsTheNewestRawSampleToAgree() {
        // Filter lags far above (bright history) while raw is now clearly dark: it must go to invert,
        // never pass through regular on the filter's say-so.
        let steps = run(trace(to: 40, every: 1) { $0 < 10 ? 5000 : 1 }, testConfiguration(tau: 5))
        #expect(steps.changes.map(\.state) == [.contrast, .invert])
    }

    @Test func noiseInsideTheBandNeverSwitches() {
        var generator = SeededGenerator(seed: 7)
        let steps = run(
            trace(to: 500, every: 0.5) { _ in Double.random(in: 10...1000, using: &generator) },
            testConfiguration(interval: 0.5))
        #expect(steps.changes.count == 1)  // startup only
    }

    @Test func zeroDwellSwitchesAtTheFirstSample() {
        let steps = run(
            trace(to: 5, every: 1) { $0 < 2 ? 300 : 1 },
            testConfiguration(dwell: 0, latency: 1, interval: 1, faultAfter: 2))
        #expect(steps.changes.map(\.time) == [0, 2])
    }

    @Test func evidenceOlderThanTheLatencyBoundIsForgotten() {
        // Dark at 5, then nothing valid until 30 (> L = 12 later): the dark sample at 30 starts new evidence.
        var samples = trace(to: 5, every: 1) { $0 < 5 ? 300 : 1 }
        samples += trace(from: 30, to: 40, every: 1) { _ in 1 }
        let steps = run(samples, testConfiguration(dwell: 5, faultAfter: 10))
        #expect(steps.changes.filter { $0.reason == .light }.map(\.time) == [35])
    }
}

struct EngineFaultTests {
    @Test func noValidSampleForFaultAfterRaisesOneFaultThenRecovers() {
        let samples = trace(to: 30, every: 1) { $0 < 5 || $0 > 20 ? 300 : nil }
        let steps = run(samples, testConfiguration(faultAfter: 10))
        let kinds = steps.events.map(\.kind)
        #expect(kinds == [.change, .fault, .recovered])
        let fault = steps.events[1]
        #expect(fault.time == 14 && fault.state == .regular && fault.lux == nil)
        let recovered = steps.events[2]
        #expect(recovered.time == 21 && recovered.lux == 300)
        #expect(steps.allSatisfy { $0.stateAfter == .regular })  // held, never guessed
    }

    @Test func faultIsRaisedAtItsDeadlineEvenBetweenSamples() {
        var engine = Engine(configuration: testConfiguration(faultAfter: 10), startTime: 0)
        _ = engine.ingest(Sample(time: 0, lux: 300))
        #expect(engine.nextDeadline == 10)
        #expect(engine.advance(to: 9.99).isEmpty)
        let events = engine.advance(to: 10)
        #expect(events.map(\.kind) == [.fault])
        #expect(engine.advance(to: 100).isEmpty)  // once
        #expect(engine.nextDeadline == nil)
    }

    @Test func aValidSampleArrivingExactlyAtTheDeadlineIsInTime() {
        let steps = run(
            [Sample(time: 0, lux: 300), Sample(time: 10, lux: 300)], testConfiguration(faultAfter: 10))
        #expect(steps.events.map(\.kind) == [.change])
    }

    @Test func faultBeforeAnyStateThenStartup() {
        let samples = trace(to: 15, every: 1) { $0 < 12 ? nil : 2000 }
        let steps = run(samples, testConfiguration(faultAfter: 10))
        #expect(steps.events.map(\.kind) == [.fault, .recovered, .change])
        #expect(steps.events[0].state == nil)
        #expect(steps.events[2].reason == .startup && steps.events[2].animated == false)
    }
}

struct EngineOverrideTests {
    @Test func overrideSwitchesAtOnceAndHoldsAgainstTheLight() {
        var engine = Engine(configuration: testConfiguration(), startTime: 0)
        _ = engine.ingest(Sample(time: 0, lux: 300))
        let events = engine.apply(.hold(.invert, duration: nil), at: 0.5)
        #expect(events.map(\.reason) == [.override])
        #expect(events.first?.previous == .regular && events.first?.animated == true)
        for time in stride(from: 1.0, through: 60, by: 1) {
            #expect(engine.ingest(Sample(time: time, lux: 50_000)).allSatisfy { $0.kind != .change })
        }
        #expect(engine.state == .invert)
        #expect(engine.automaticState == .contrast)  // the light went on being followed
    }

    @Test func autoReturnsToTheLightDrivenStateAtOnce() {
        var engine = Engine(configuration: testConfiguration(), startTime: 0)
        _ = engine.ingest(Sample(time: 0, lux: 300))
        _ = engine.apply(.hold(.contrast, duration: nil), at: 1)
        let events = engine.apply(.auto, at: 1.2)
        #expect(events.count == 1)
        #expect(events.first?.state == .regular && events.first?.reason == .auto && events.first?.time == 1.2)
        #expect(engine.activeOverride == nil)
    }

    @Test func overrideExpiresAtItsDeadline() {
        var engine = Engine(configuration: testConfiguration(faultAfter: 100), startTime: 0)
        _ = engine.ingest(Sample(time: 0, lux: 300))
        _ = engine.apply(.hold(.invert, duration: 30), at: 10)
        #expect(engine.nextDeadline == 40)
        #expect(engine.ingest(Sample(time: 39, lux: 300)).isEmpty)
        let events = engine.ingest(Sample(time: 41, lux: 300))
        #expect(events.map(\.reason) == [.auto])
        #expect(events.first?.time == 40 && events.first?.state == .regular)
    }

    @Test func overrideToTheCurrentStateAndAutoToTheSameStateAreCurrentEventsNotChanges() {
        var engine = Engine(configuration: testConfiguration(), startTime: 0)
        _ = engine.ingest(Sample(time: 0, lux: 300))
        let held = engine.apply(.hold(.regular, duration: 60), at: 1)
        #expect(held.map(\.kind) == [.current])
        #expect(held.first?.override == .regular && held.first?.overrideUntil == 61)
        #expect(held.first?.reason == .override && held.first?.animated == false)
        #expect(engine.activeOverride == Engine.Override(state: .regular, until: 61))
        let back = engine.apply(.auto, at: 2)
        #expect(back.map(\.kind) == [.current])
        #expect(back.first?.override == nil && back.first?.state == .regular && back.first?.reason == .auto)
        #expect(engine.apply(.auto, at: 3).isEmpty)  // no override to end: nothing to say
    }

    @Test func eventsCarryTheOverrideAndTheFault() {
        var engine = Engine(configuration: testConfiguration(faultAfter: 10), startTime: 0)
        _ = engine.ingest(Sample(time: 0, lux: 300))
        let held = engine.apply(.hold(.invert, duration: 100), at: 1)
        #expect(held.first?.override == .invert && held.first?.overrideUntil == 101)
        #expect(held.first?.faulted == false)
        let fault = engine.advance(to: 11)
        #expect(fault.map(\.kind) == [.fault])
        #expect(fault.first?.faulted == true && fault.first?.override == .invert)
        let recovered = engine.ingest(Sample(time: 12, lux: 300))
        #expect(recovered.map(\.kind) == [.recovered])
        #expect(recovered.first?.faulted == false)
        let ended = engine.apply(.auto, at: 13)
        #expect(ended.first?.override == nil && ended.first?.overrideUntil == nil)
    }

    @Test func overrideBeforeTheFirstSampleIsTheFirstDeliveryAndStartupStaysSilent() {
        var engine = Engine(configuration: testConfiguration(), startTime: 0)
        let first = engine.apply(.hold(.contrast, duration: nil), at: 0)
        #expect(first.map(\.animated) == [false])
        #expect(first.first?.previous == nil)
        #expect(engine.ingest(Sample(time: 1, lux: 1)).isEmpty)
        #expect(engine.automaticState == .invert)
        let back = engine.apply(.auto, at: 2)
        #expect(back.map(\.state) == [.invert])
    }

    @Test func overridesAreExemptFromTheDwell() {
        var engine = Engine(configuration: testConfiguration(dwell: 5), startTime: 0)
        _ = engine.ingest(Sample(time: 0, lux: 300))
        let events =
            engine.apply(.hold(.invert, duration: nil), at: 0.1)
            + engine.apply(.hold(.contrast, duration: nil), at: 0.2)
            + engine.apply(.auto, at: 0.3)
        #expect(events.map(\.state) == [.invert, .contrast, .regular])
    }
}

struct EngineReconfigurationTests {
    @Test func newThresholdsApplyWithoutLosingTheState() throws {
        var engine = Engine(configuration: testConfiguration(), startTime: 0)
        _ = engine.ingest(Sample(time: 0, lux: 300))
        for time in stride(from: 1.0, through: 20, by: 1) {
            #expect(engine.ingest(Sample(time: time, lux: 300)).isEmpty)
        }
        // 300 lux is regular under the old thresholds and sunlight under the new ones.
        let brighter = try Thresholds(
            invertRegular: Boundary(fall: 5, rise: 10), regularContrast: Boundary(fall: 100, rise: 200))
        engine.reconfigure(
            try EngineConfiguration(
                thresholds: brighter, timeConstant: 1, minimumDwell: 5, latencyBound: 12, sampleInterval: 1,
                faultAfter: 10))
        #expect(engine.state == .regular)
        #expect(engine.filteredLux == 300)
        var switched: [Event] = []
        for time in stride(from: 21.0, through: 30, by: 1) {
            switched += engine.ingest(Sample(time: time, lux: 300))
        }
        // Evidence starts afresh at the first sample after the reload: 21, complete at 26.
        #expect(switched.map(\.state) == [.contrast])
        #expect(switched.first?.time == 26)
    }
}
