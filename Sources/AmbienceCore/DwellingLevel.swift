/// A level read from noisy samples that stays while they stay within `deadband` of it, and moves
/// only on `dwell` seconds of evidence that they are beyond that band on one side: either every
/// sample since the evidence began was (the level becomes their mean), or the moving average
/// was and the newest sample agrees (the level becomes the average). A shadow or a glint
/// shorter than the dwell, or a light wandering inside the band, moves nothing. The brightness
/// engine's level (in log10 lux) and the white point's (in mireds) follow this rule.
struct DwellingLevel: Sendable {
    var dwell: Double
    var deadband: Double
    private(set) var level: Double?
    private var filter: EMAFilter
    private var rawEvidence: Evidence?
    private var filteredEvidence: Evidence?

    /// A run of samples beyond the band on one side (+1 above, -1 below) since `since`, with the
    /// sum of their values for their mean.
    private struct Evidence: Sendable {
        var side: Int
        var since: Double
        var sum: Double
        var count: Int
    }

    /// Evidence due at a sample's time computed by another sum of tenths is due at it.
    private static let slack = 1e-6

    init(timeConstant: Double, dwell: Double, deadband: Double) {
        self.dwell = dwell
        self.deadband = deadband
        filter = EMAFilter(timeConstant: timeConstant)
    }

    /// The moving average of the samples; nil before the first.
    var filtered: Double? { filter.value }

    var timeConstant: Double {
        get { filter.timeConstant }
        set { filter.timeConstant = newValue }
    }

    /// Takes one sample; true when the level moved (the first sample sets it).
    @discardableResult
    mutating func judge(_ sample: Double, at time: Double) -> Bool {
        let filtered = filter.update(time: time, lux: sample)
        guard let level else {
            move(to: sample)
            return true
        }
        let rawSide = side(of: sample, from: level)
        rawEvidence = Self.extend(rawEvidence, side: rawSide, value: sample, at: time)
        filteredEvidence = Self.extend(
            filteredEvidence, side: side(of: filtered, from: level), value: filtered, at: time)
        if let raw = rawEvidence, time - raw.since + Self.slack >= dwell {
            move(to: raw.sum / Double(raw.count))
            return true
        }
        if let smooth = filteredEvidence, time - smooth.since + Self.slack >= dwell, smooth.side == rawSide {
            move(to: filtered)
            return true
        }
        return false
    }

    /// Puts the level at `level` and drops the evidence (judged against the old level).
    mutating func move(to level: Double) {
        self.level = level
        forgetEvidence()
    }

    /// A stretch that is no evidence either way (a failed or unusable reading, a new band): the
    /// runs start again.
    mutating func forgetEvidence() {
        rawEvidence = nil
        filteredEvidence = nil
    }

    private func side(of value: Double, from level: Double) -> Int {
        if value > level + deadband { return 1 }
        if value < level - deadband { return -1 }
        return 0
    }

    private static func extend(_ evidence: Evidence?, side: Int, value: Double, at time: Double) -> Evidence?
    {
        guard side != 0 else { return nil }
        guard var evidence, evidence.side == side else {
            return Evidence(side: side, since: time, sum: value, count: 1)
        }
        evidence.sum += value
        evidence.count += 1
        return evidence
    }
}
