import AmbienceCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct BrightnessCurveTests {
    let curve = BrightnessCurve.indoorKiosk  // 1 → 10, 50 → 35, 500 → 70, 5000 → 100

    @Test func pointsAreInterpolatedOnLogLux() {
        #expect(curve.percent(lux: 1) == 10)
        #expect(curve.percent(lux: 50) == 35)
        #expect(abs(curve.percent(lux: (50 * 500).squareRoot()) - 52.5) < 1e-9)
        #expect(abs(curve.percent(lux: 5000) - 100) < 1e-9)
    }

    @Test func theEndsAreHeldFlat() {
        #expect(curve.percent(lux: 0) == 10)
        #expect(curve.percent(lux: 0.001) == 10)
        #expect(curve.percent(lux: 100_000) == 100)
    }

    @Test(
        arguments: [
            ([], "at least one"),
            ([[0, 10]], "positive"),
            ([[10, 120]], "0 to 100"),
            ([[10, 20], [10, 30]], "above the point before"),
            ([[100, 20], [10, 30]], "above the point before"),
        ] as [([[Double]], String)])
    func badCurvesAreRefusedWithWhy(points: [[Double]], why: String) {
        #expect {
            try BrightnessCurve(points.map { BrightnessCurve.Point(lux: $0[0], percent: $0[1]) })
        } throws: { error in
            (error as? ConfigurationError)?.message.contains(why) == true
        }
    }

    @Test func aStateCurveOverridesTheDefaultAndTheLightIsClampedToMinAndMax() throws {
        let dim = try BrightnessCurve([.init(lux: 1, percent: 0), .init(lux: 100, percent: 30)])
        let configuration = try BrightnessConfiguration(invertCurve: dim, minimum: 8, maximum: 90)
        #expect(configuration.percent(logLux: 0, state: .invert) == 8)  // 0 %, clamped up
        #expect(configuration.percent(logLux: 2, state: .invert) == 30)
        #expect(configuration.percent(logLux: 2, state: .regular) == 46)  // the default curve, 45.5
        #expect(configuration.percent(logLux: 5, state: .contrast) == 90)  // 100 %, clamped down
    }

    @Test func badSettingsAreRefused() {
        #expect(throws: ConfigurationError.self) { try BrightnessConfiguration(minimum: 60, maximum: 50) }
        #expect(throws: ConfigurationError.self) { try BrightnessConfiguration(timeConstant: 0) }
        #expect(throws: ConfigurationError.self) { try BrightnessConfiguration(rampRate: 0) }
        #expect(throws: ConfigurationError.self) { try BrightnessConfiguration(deadband: -1) }
    }
}

/// Runs `light` (lux at each time) through an engine at 10 Hz from 0 to `end`, in the theme
/// state `state`; returns the output after each sample.
private func outputs(
    _ light: (Double) -> Double?, until end: Double, state: AmbienceState = .regular,
    engine: inout BrightnessEngine
) -> [(time: Double, percent: Int)] {
    var result: [(Double, Int)] = []
    for step in 0...Int((end * 10).rounded()) {
        let time = Double(step) / 10
        engine.ingest(lux: light(time), state: state, at: time)
        result.append((time, engine.output ?? -1))
    }
    return result
}

struct BrightnessEngineTests {
    let configuration = BrightnessConfiguration.indoorKiosk

    @Test func theFirstSampleIsShownAtOnceAndNothingIsPendingAtRest() {
        var engine = BrightnessEngine()
        engine.ingest(lux: 50, state: .regular, at: 0)
        #expect(engine.output == 35)
        #expect(engine.nextDeadline == nil)
    }

    /// The theme engine ignores light wandering inside its bands (a factor 2 to 2.5 between fall
    /// and rise): brightness ignores ±35 % of wander around any level, at every level.
    @Test(arguments: [3.0, 30, 300, 3000])
    func noiseAroundALevelNeverPumps(level: Double) {
        var generator = SeededGenerator(seed: UInt64(level))
        var engine = BrightnessEngine()
        let run = outputs(
            { _ in level * (1 + Double.random(in: -0.35...0.35, using: &generator)) }, until: 3600,
            engine: &engine)
        #expect(Set(run.map(\.percent)).count == 1, "the output moved under noise at \(level) lux")
    }

    /// Shorter than the dwell, as the theme engine ignores them: a passing shadow (a hundredth of
    /// the light) and a glint of sunlight (a hundred times it), over and over.
    @Test func passingShadowsAndGlintsDoNotPump() {
        var engine = BrightnessEngine()
        let run = outputs(
            { time in
                let second = time.truncatingRemainder(dividingBy: 60)
                if second >= 10 && second < 14.9 { return 3 }  // a shadow of 4.9 s
                if second >= 30 && second < 34.9 { return 30_000 }  // a glint of 4.9 s
                return 300
            }, until: 1800, engine: &engine)
        #expect(Set(run.map(\.percent)).count == 1)
    }

    @Test func aStepReachesItsTargetWithinTheBoundInStepsOfOnePercentAtTheRampRate() {
        var engine = BrightnessEngine()
        let run = outputs({ $0 < 100 ? 2 : 3000 }, until: 200, engine: &engine)
        let target = configuration.percent(logLux: log10(3000), state: .regular)
        let bound = configuration.latencyBound(sampleInterval: 0.1)
        #expect(bound < 15)
        let reached = run.first { $0.time >= 100 && $0.percent == target }
        #expect(reached != nil && reached!.time - 100 <= bound)
        // Nothing moves before the dwell's evidence.
        #expect(
            run.filter { $0.time < 100 + configuration.dwell - 0.05 }.allSatisfy {
                $0.percent == run[0].percent
            })
        var lastChange = -Double.infinity
        for (previous, next) in zip(run, run.dropFirst()) where previous.percent != next.percent {
            #expect(abs(next.percent - previous.percent) == 1)
            #expect(next.time - lastChange >= 1 / configuration.rampRate - 1e-6)
            lastChange = next.time
        }
        #expect(run.last?.percent == target)
    }

    @Test func aStepDownFadesDownToo() {
        var engine = BrightnessEngine()
        let run = outputs({ $0 < 50 ? 3000 : 2 }, until: 100, engine: &engine)
        #expect(run.first?.percent == configuration.percent(logLux: log10(3000), state: .regular))
        #expect(run.last?.percent == configuration.percent(logLux: log10(2), state: .regular))
    }

    @Test func whileRampingTheNextStepIsTheOnlyExtraDeadline() {
        var engine = BrightnessEngine()
        engine.ingest(lux: 2, state: .regular, at: 0)
        engine.apply(.hold(percent: 90, duration: nil), at: 1)
        #expect(engine.nextDeadline.map { abs($0 - 1.1) < 1e-9 } == true)
        var time = 1.0
        while let next = engine.nextDeadline {
            time = next
            engine.advance(to: time)
        }
        #expect(engine.output == 90)
        #expect(abs(time - (1 + Double(90 - 15) / 10)) < 1e-6)
    }

    @Test func anOverrideHoldsAgainstTheLightThenEndsByItself() {
        var engine = BrightnessEngine()
        engine.ingest(lux: 300, state: .regular, at: 0)
        let automatic = engine.output
        engine.apply(.hold(percent: 20, duration: 60), at: 10)
        for step in 1...500 { engine.ingest(lux: 300, state: .regular, at: 10 + Double(step) / 10) }
        #expect(engine.output == 20 && engine.activeOverride?.percent == 20)
        for step in 1...500 { engine.ingest(lux: 300, state: .regular, at: 60 + Double(step) / 10) }
        #expect(engine.activeOverride == nil && engine.output == automatic)
    }

    @Test func autoGoesBackToTheLight() {
        var engine = BrightnessEngine()
        engine.ingest(lux: 300, state: .regular, at: 0)
        engine.apply(.hold(percent: 100, duration: nil), at: 0)
        engine.apply(.auto, at: 100)
        #expect(engine.activeOverride == nil && engine.target == engine.automaticTarget)
    }

    @Test func aThemeStateWithItsOwnCurveChangesTheTarget() throws {
        let dim = try BrightnessCurve([.init(lux: 1, percent: 5)])
        var engine = BrightnessEngine(configuration: try BrightnessConfiguration(invertCurve: dim))
        engine.ingest(lux: 10, state: .regular, at: 0)
        #expect(engine.output == configuration.percent(logLux: 1, state: .regular))
        engine.ingest(lux: 10, state: .invert, at: 0.1)
        #expect(engine.target == 5)
    }
}
