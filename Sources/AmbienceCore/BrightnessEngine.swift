/// The backlight's engine: lux and the theme's state in, a percent out, in simulated time (the
/// caller passes monotonic seconds, as it does to `Engine`). docs/backlight.md is its contract.
///
/// The light moves a *level* (log10 lux) that the target percent is read from, in the theme
/// engine's spirit: the level stays while the light stays within `deadband` decades of it, and
/// moves only on `dwell` seconds of evidence that the light is beyond that band on one side:
/// either every valid raw sample since the evidence began was (the level becomes their mean),
/// or the moving average was and the newest raw sample agrees (the level becomes the average).
/// A shadow or a glint shorter than the dwell, or light wandering inside the band, moves
/// nothing. The output then ramps to the target one percent at a time, at most `rampRate`
/// percent a second, so a step in the light is a slow fade and never a jump.
public struct BrightnessEngine: Sendable {
    public private(set) var configuration: BrightnessConfiguration

    /// The percent the backlight should show now; nil before the first valid sample or override.
    public private(set) var output: Int?
    /// The light's percent (clamped to min and max); nil before the first valid sample.
    public private(set) var automaticTarget: Int?
    public private(set) var activeOverride: Override?
    /// log10 lux the light's target was read from.
    public private(set) var level: Double?

    public struct Override: Equatable, Sendable {
        public var percent: Int
        /// Monotonic time at which the override ends by itself; nil holds until `auto`.
        public var until: Double?

        public init(percent: Int, until: Double?) {
            self.percent = percent
            self.until = until
        }
    }

    public enum Command: Equatable, Sendable {
        /// Show `percent` (0...100) until `auto`, or for `duration` seconds.
        case hold(percent: Int, duration: Double?)
        /// Back to the light.
        case auto
    }

    /// A run of samples beyond the band on one side (+1 above, -1 below) since `since`, with the
    /// sum of their levels for their mean.
    private struct Evidence: Sendable {
        var side: Int
        var since: Double
        var sum: Double
        var count: Int
    }

    private var filter: EMAFilter
    private var rawEvidence: Evidence?
    private var filteredEvidence: Evidence?
    private var state: AmbienceState?
    private var lastStep = -Double.infinity

    /// Steps and deadlines within this of each other are one: a step due at a sample's time
    /// computed by another sum of tenths must not cost the loop a second wake-up.
    private static let slack = 1e-6

    public init(configuration: BrightnessConfiguration = .indoorKiosk) {
        self.configuration = configuration
        filter = EMAFilter(timeConstant: configuration.timeConstant)
    }

    /// The moving average of log10 lux; nil before the first valid sample.
    public var filteredLevel: Double? { filter.value }

    /// What the output is heading for: the override's percent, or the light's.
    public var target: Int? { activeOverride?.percent ?? automaticTarget }

    /// When `advance(to:)` next has something to do: the next ramp step, or an override's end.
    /// Nil when the output rests at its target and no override will end: the loop then wakes
    /// only to sample.
    public var nextDeadline: Double? {
        var deadline = activeOverride?.until
        if let output, let target, output != target {
            let step = lastStep + 1 / configuration.rampRate
            deadline = min(deadline ?? step, step)
        }
        return deadline
    }

    /// Feeds one sample with the theme's state at it; a failed read (nil lux) only moves time on.
    public mutating func ingest(lux: Double?, state: AmbienceState?, at time: Double) {
        if state != self.state {
            self.state = state
            if let level { automaticTarget = configuration.percent(logLux: level, state: state) }
        }
        if let lux, lux.isFinite {
            judge(clampedLevel(lux), at: time)
        }
        advance(to: time)
    }

    /// Ends an expired override, and takes one ramp step when one is due.
    public mutating func advance(to time: Double) {
        if let until = activeOverride?.until, until <= time + Self.slack {
            activeOverride = nil
        }
        guard let target else { return }
        guard let current = output else {
            // The first percent is shown as it is: there is nothing on screen to fade from.
            output = target
            lastStep = time
            return
        }
        guard current != target, time + Self.slack >= lastStep + 1 / configuration.rampRate else { return }
        output = current + (target > current ? 1 : -1)
        lastStep = time
    }

    /// An override holds at once (it ramps like any change); `auto` goes back to the light.
    public mutating func apply(_ command: Command, at time: Double) {
        switch command {
        case .hold(let percent, let duration):
            activeOverride = Override(percent: min(max(percent, 0), 100), until: duration.map { time + $0 })
        case .auto:
            activeOverride = nil
        }
        advance(to: time)
    }

    /// Takes new settings (a reload): the level, the output and any override carry over; the
    /// target is read again from the new curves, and the evidence, judged against the old band,
    /// is dropped.
    public mutating func reconfigure(_ newConfiguration: BrightnessConfiguration) {
        configuration = newConfiguration
        filter.timeConstant = newConfiguration.timeConstant
        rawEvidence = nil
        filteredEvidence = nil
        if let level {
            let clamped = min(
                max(level, newConfiguration.logLuxSpan.lowerBound), newConfiguration.logLuxSpan.upperBound)
            self.level = clamped
            automaticTarget = newConfiguration.percent(logLux: clamped, state: state)
        }
    }

    private func clampedLevel(_ lux: Double) -> Double {
        let span = configuration.logLuxSpan
        guard lux > 0 else { return span.lowerBound }
        return min(max(PortableMath.log10(lux), span.lowerBound), span.upperBound)
    }

    private mutating func judge(_ sample: Double, at time: Double) {
        let filtered = filter.update(time: time, lux: sample)
        guard let level else {
            move(to: sample)
            return
        }
        let rawSide = side(of: sample, from: level)
        rawEvidence = Self.extend(rawEvidence, side: rawSide, value: sample, at: time)
        filteredEvidence = Self.extend(
            filteredEvidence, side: side(of: filtered, from: level), value: filtered, at: time)
        let dwell = configuration.dwell
        if let raw = rawEvidence, time - raw.since + Self.slack >= dwell {
            move(to: raw.sum / Double(raw.count))
        } else if let smooth = filteredEvidence, time - smooth.since + Self.slack >= dwell,
            smooth.side == rawSide
        {
            move(to: filtered)
        }
    }

    private mutating func move(to newLevel: Double) {
        level = newLevel
        rawEvidence = nil
        filteredEvidence = nil
        automaticTarget = configuration.percent(logLux: newLevel, state: state)
    }

    private func side(of value: Double, from level: Double) -> Int {
        if value > level + configuration.deadband { return 1 }
        if value < level - configuration.deadband { return -1 }
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
