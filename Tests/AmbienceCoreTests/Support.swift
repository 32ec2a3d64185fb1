import AmbienceCore

/// SplitMix64: a tiny seeded generator, so every random trace can be reproduced from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What happened at each sample when a trace ran through an engine.
struct Step {
    var sample: Sample
    var stateBefore: AmbienceState?
    var stateAfter: AmbienceState?
    var events: [Event]
}

func run(_ samples: [Sample], _ configuration: EngineConfiguration) -> [Step] {
    guard let first = samples.first else { return [] }
    var engine = Engine(configuration: configuration, startTime: first.time)
    return samples.map { sample in
        let before = engine.state
        let events = engine.ingest(sample)
        return Step(sample: sample, stateBefore: before, stateAfter: engine.state, events: events)
    }
}

/// Samples every `interval` seconds from `start`, lux given by `light(time)`.
func trace(from start: Double = 0, to end: Double, every interval: Double, _ light: (Double) -> Double?)
    -> [Sample]
{
    stride(from: start, through: end, by: interval).map { Sample(time: $0, lux: light($0)) }
}

extension Array where Element == Step {
    var events: [Event] { flatMap(\.events) }
    var changes: [Event] { events.filter { $0.kind == .change } }
}
