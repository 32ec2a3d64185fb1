import AmbienceCore
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Property tests: thousands of seeded random traces and configurations, each checked against
/// the guarantees G1–G4 as docs/guarantees.md §4 words them. The checkers below are written from the
/// contract, not from the engine: they recompute the filter and the indications themselves.
struct EngineGuaranteeTests {
    static let traceCount = 4000

    @Test func guaranteesHoldOnRandomTraces() {
        var checked = 0
        var sampleCount = 0
        var switches = 0
        var g1Runs = 0
        for seed in 0..<UInt64(Self.traceCount) {
            var generator = SeededGenerator(seed: seed)
            let configuration = RandomTraces.configuration(using: &generator)
            let samples = RandomTraces.trace(for: configuration, using: &generator)
            let steps = run(samples, configuration)
            let violations = GuaranteeChecker(configuration: configuration, steps: steps).violations()
            if let first = violations.first {
                Issue.record("seed \(seed): \(first) (\(violations.count) violations)")
                return
            }
            checked += 1
            sampleCount += steps.count
            switches += steps.changes.count
            g1Runs += GuaranteeChecker(configuration: configuration, steps: steps).latencyRuns().count
        }
        #expect(checked == Self.traceCount)
        print("G1–G4 held on \(checked) random traces, \(sampleCount) samples, \(switches) changes")
        // The traces must exercise the engine: many switches and many runs that G1 applies to.
        #expect(switches > 5 * Self.traceCount)
        #expect(g1Runs > Self.traceCount)
    }

    @Test func sameSeedGivesTheSameTrace() {
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        let configuration = RandomTraces.configuration(using: &first)
        _ = RandomTraces.configuration(using: &second)
        #expect(
            RandomTraces.trace(for: configuration, using: &first)
                == RandomTraces.trace(for: configuration, using: &second))
    }

    /// The worst case of G1: a filter-free raw level change right after a switch waits one dwell,
    /// then needs D of evidence at samples P apart; it still lands within 2D + P.
    @Test func latencyBoundIsMetInTheWorstCase() {
        let configuration = testConfiguration(tau: 0.01, dwell: 5, latency: 11, interval: 1)
        // Dark, then regular from 0.5 (switch at 5.5), then sunlight from 6.
        let samples =
            [Sample(time: 0, lux: 1)] + trace(from: 0.5, to: 5.5, every: 1) { _ in 300 }
            + trace(from: 6, to: 30, every: 1) { _ in 50_000 }
        let steps = run(samples, configuration)
        let contrast = steps.changes.first { $0.state == .contrast }
        #expect(contrast != nil)
        #expect(contrast!.time <= 6 + configuration.latencyBound)
        #expect(GuaranteeChecker(configuration: configuration, steps: steps).violations().isEmpty)
    }

    /// The checker itself must catch violations, or the property test proves nothing.
    @Test func checkerCatchesBrokenBehaviour() {
        let configuration = testConfiguration(dwell: 5)
        let samples = trace(to: 20, every: 1) { $0 < 5 ? 1 : 300 }
        var steps = run(samples, configuration)
        // A forged switch at 7, three seconds before the real one at 10: too soon (G3) and unjustified (G4).
        #expect(steps.changes.map(\.time) == [0, 10])
        var forged = Event(
            kind: .change, state: .regular, previous: .invert, animated: true, reason: .light, lux: 300,
            filtered: 300, time: 7)
        steps[7].events = [forged]
        let violations = GuaranteeChecker(configuration: configuration, steps: steps).violations()
        #expect(violations.contains { $0.hasPrefix("G3") })
        #expect(violations.contains { $0.hasPrefix("G4") })
        // A state that never reaches the unambiguous level's state breaks G1.
        steps = run(samples, configuration)
        for index in steps.indices { steps[index].stateAfter = .invert }
        forged.kind = .current
        #expect(
            GuaranteeChecker(configuration: configuration, steps: steps).violations().contains {
                $0.hasPrefix("G1")
            })
    }
}

/// Random but reproducible configurations and traces: steps, ramps, noise near a threshold,
/// gaps longer than P, failed reads and uneven spacing.
enum RandomTraces {
    static func configuration(using generator: inout SeededGenerator) -> EngineConfiguration {
        let low = Double.random(in: 1...50, using: &generator)
        let lowRise = low * Double.random(in: 1.1...3, using: &generator)
        let high = lowRise * Double.random(in: 3...100, using: &generator)
        let highRise = high * Double.random(in: 1.1...3, using: &generator)
        let thresholds = try! Thresholds(
            invertRegular: Boundary(fall: low, rise: lowRise),
            regularContrast: Boundary(fall: high, rise: highRise))
        let interval = [0.1, 0.25, 0.5, 1, 2].randomElement(using: &generator)!
        let dwell = [0, 0.3, 1, 2, 5, 10].randomElement(using: &generator)!
        let latency =
            2 * dwell + interval + Double.random(in: 0...2, using: &generator)
            * (Bool.random(using: &generator) ? 1 : 0)
        return try! EngineConfiguration(
            thresholds: thresholds, timeConstant: [0.2, 1, 3, 10].randomElement(using: &generator)!,
            minimumDwell: dwell, latencyBound: latency, sampleInterval: interval,
            faultAfter: interval * Double.random(in: 1.5...20, using: &generator))
    }

    static func trace(for configuration: EngineConfiguration, using generator: inout SeededGenerator)
        -> [Sample]
    {
        let boundaries = [configuration.thresholds.invertRegular, configuration.thresholds.regularContrast]
        let interval = configuration.sampleInterval
        var samples: [Sample] = []
        var time = Double.random(in: 0...100, using: &generator)
        var level = randomLevel(boundaries, using: &generator)
        let segments = Int.random(in: 3...12, using: &generator)
        for _ in 0..<segments {
            let duration = Double.random(in: 0...(4 * configuration.latencyBound + 5), using: &generator)
            let end = time + duration
            let failureRate =
                Bool.random(using: &generator) ? 0 : Double.random(in: 0...0.3, using: &generator)
            let spacing = Int.random(in: 0..<4, using: &generator)  // 0: even, 1...3: uneven up to P
            let kind = Int.random(in: 0..<5, using: &generator)
            let start = level
            let target = randomLevel(boundaries, using: &generator)
            let edge = boundaries.randomElement(using: &generator)!
            let noise = Double.random(in: 0.01...0.6, using: &generator)
            while time < end {
                let progress = duration > 0 ? (end - time) / duration : 0
                let value: Double
                switch kind {
                case 0: value = target  // step
                case 1: value = start + (target - start) * (1 - progress)  // ramp
                case 2:  // noise around one threshold
                    let centre = Bool.random(using: &generator) ? edge.fall : edge.rise
                    value = centre * (1 + Double.random(in: -noise...noise, using: &generator))
                case 3:  // a noisy level
                    value = target * (1 + Double.random(in: -noise...noise, using: &generator))
                default:  // flicker between two levels
                    value = Bool.random(using: &generator) ? start : target
                }
                level = value
                let failed = Double.random(in: 0..<1, using: &generator) < failureRate
                samples.append(Sample(time: time, lux: failed ? nil : max(0, value)))
                time += spacing == 0 ? interval : interval * Double.random(in: 0.05...1, using: &generator)
            }
            if Int.random(in: 0..<6, using: &generator) == 0 {  // a gap: no samples at all
                time += Double.random(in: interval...(3 * configuration.faultAfter), using: &generator)
            }
        }
        return samples
    }

    private static func randomLevel(_ boundaries: [Boundary], using generator: inout SeededGenerator)
        -> Double
    {
        // Log-uniform from deep darkness to full sunlight, so every zone and band is visited.
        let low = log10(boundaries[0].fall / 10)
        let high = log10(boundaries[1].rise * 10)
        return pow(10, Double.random(in: low...high, using: &generator))
    }
}

/// G1–G4, startup and faults, checked on what the engine did with a trace.
struct GuaranteeChecker {
    let configuration: EngineConfiguration
    let steps: [Step]
    private let filtered: [Double?]
    private let lightChanges: [(index: Int, event: Event)]

    init(configuration: EngineConfiguration, steps: [Step]) {
        self.configuration = configuration
        self.steps = steps
        filtered = Self.filter(steps, timeConstant: configuration.timeConstant)
        lightChanges = steps.indices.flatMap { index in
            steps[index].events.filter { $0.kind == .change && $0.reason == .light }.map { (index, $0) }
        }
    }

    private var thresholds: Thresholds { configuration.thresholds }

    /// The contract's filter, recomputed: nil at samples before the first valid one.
    private static func filter(_ steps: [Step], timeConstant tau: Double) -> [Double?] {
        var value: Double?
        var lastTime = 0.0
        return steps.map { step in
            guard let lux = step.sample.lux else { return value }
            if let previous = value, step.sample.time - lastTime <= 5 * tau {
                value = previous + (1 - exp(-(step.sample.time - lastTime) / tau)) * (lux - previous)
            } else {
                value = lux
            }
            lastTime = step.sample.time
            return value
        }
    }

    func violations() -> [String] {
        latencyViolations() + noiseViolations() + flickerViolations() + justificationViolations()
            + startupViolations() + faultViolations()
    }

    /// Maximal runs of valid samples in one unambiguous zone, each no more than P after the previous.
    func latencyRuns() -> [(state: AmbienceState, indices: [Int])] {
        var runs: [(state: AmbienceState, indices: [Int])] = []
        var current: (state: AmbienceState, indices: [Int])?
        var lastValidTime = -Double.infinity
        for (index, step) in steps.enumerated() {
            guard let lux = step.sample.lux else {
                // A failed read is inside the run only while a valid sample is not yet overdue.
                if step.sample.time - lastValidTime <= configuration.sampleInterval {
                    current?.indices.append(index)
                } else if let run = current {
                    runs.append(run)
                    current = nil
                }
                continue
            }
            let zone = thresholds.unambiguousState(lux: lux)
            let inTime = step.sample.time - lastValidTime <= configuration.sampleInterval
            lastValidTime = step.sample.time
            if let run = current, let zone, zone == run.state, inTime {
                current!.indices.append(index)
            } else {
                if let run = current { runs.append(run) }
                current = zone.map { ($0, [index]) }
            }
        }
        if let run = current { runs.append(run) }
        return runs
    }

    private func latencyViolations() -> [String] {
        latencyRuns().compactMap { run in
            let start = steps[run.indices[0]].sample.time
            let late = run.indices.first { index in
                steps[index].sample.time >= start + configuration.latencyBound
                    && steps[index].stateAfter != run.state
            }
            return late.map {
                "G1: from \(start) every valid sample indicated \(run.state), but at \(steps[$0].sample.time)"
                    + " the state is \(String(describing: steps[$0].stateAfter))"
            }
        }
    }

    /// G2 at the switching sample: something must have left the current state's own band.
    private func noiseViolations() -> [String] {
        lightChanges.compactMap { index, event in
            guard let from = event.previous, let lux = steps[index].sample.lux, let smooth = filtered[index]
            else {
                return "G2: light change at \(event.time) without a valid sample or a previous state"
            }
            let inside =
                thresholds.indicated(from: from, lux: lux) == from
                && thresholds.indicated(from: from, lux: smooth) == from
            return inside
                ? "G2: switched at \(event.time) while raw \(lux) and filtered \(smooth) stayed in \(from)"
                : nil
        }
    }

    private func flickerViolations() -> [String] {
        zip(lightChanges, lightChanges.dropFirst()).compactMap { earlier, later in
            later.event.time - earlier.event.time >= configuration.minimumDwell
                ? nil : "G3: light changes at \(earlier.event.time) and \(later.event.time) are closer than D"
        }
    }

    private func justificationViolations() -> [String] {
        let dwell = configuration.minimumDwell
        let firstValidTime = steps.first { $0.sample.lux != nil }?.sample.time ?? .infinity
        return lightChanges.compactMap { index, event in
            guard let from = event.previous, let to = event.state else { return "G4: change without states" }
            let earliest =
                steps[...index].lastIndex { $0.sample.time < event.time - dwell }.map { $0 + 1 } ?? 0
            let window = steps.indices[earliest...index].filter { steps[$0].sample.lux != nil }
            let rawSays = window.allSatisfy {
                thresholds.indicated(from: from, lux: steps[$0].sample.lux!) == to
            }
            let filterSays = window.allSatisfy {
                filtered[$0].map { thresholds.indicated(from: from, lux: $0) } == to
            }
            let observedForD = firstValidTime <= event.time - dwell
            return (rawSays || filterSays) && observedForD
                ? nil : "G4: switch to \(to) at \(event.time) not justified over the preceding D"
        }
    }

    private func startupViolations() -> [String] {
        guard let first = steps.firstIndex(where: { $0.sample.lux != nil }) else { return [] }
        let change = steps[first].events.first { $0.kind == .change }
        guard let change, change.reason == .startup, !change.animated,
            change.state == thresholds.indicated(from: .regular, lux: steps[first].sample.lux!)
        else { return ["startup: the first valid sample did not set the state at once"] }
        let more = steps.flatMap(\.events).filter { $0.reason == .startup }.count
        return more == 1 ? [] : ["startup: \(more) startup events"]
    }

    /// A fault exactly when fault_after passed without a valid sample; a recovery at the next one.
    private func faultViolations() -> [String] {
        var problems: [String] = []
        var lastValid = steps.first?.sample.time ?? 0
        var faulted = false
        for step in steps {
            let kinds = step.events.map(\.kind)
            let time = step.sample.time
            let due =
                !faulted
                && (time - lastValid > configuration.faultAfter
                    || (time - lastValid == configuration.faultAfter && step.sample.lux == nil))
            if due != kinds.contains(.fault) {
                problems.append("fault: expected \(due) at \(time), got \(kinds)")
            }
            if due { faulted = true }
            if step.sample.lux != nil {
                if faulted != kinds.contains(.recovered) {
                    problems.append("fault: recovery at \(time) is \(kinds)")
                }
                faulted = false
                lastValid = time
            }
            if step.stateBefore != nil && step.stateAfter == nil { problems.append("state lost at \(time)") }
        }
        return problems
    }
}
