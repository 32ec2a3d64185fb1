/// The backlight's engine: lux and the theme's state in, a percent out, in simulated time (the
/// caller passes monotonic seconds, as it does to `Engine`). docs/backlight.md is its contract.
///
/// The light moves a *level* (log10 lux) that the target percent is read from, in the theme
/// engine's spirit (`DwellingLevel`): the level stays while the light stays within `deadband`
/// decades of it, and moves only on `dwell` seconds of evidence that it is beyond that band on
/// one side. The output then ramps to the target one percent at a time, at most `rampRate`
/// percent a second, so a step in the light is a slow fade and never a jump.
public struct BrightnessEngine: Sendable {
    public private(set) var configuration: BrightnessConfiguration

    /// The percent the backlight should show now; nil before the first valid sample or override.
    public var output: Int? { ramp.output.map { Int($0) } }
    /// The light's percent (clamped to min and max); nil before the first valid sample.
    public private(set) var automaticTarget: Int?
    public private(set) var activeOverride: Override?
    /// log10 lux the light's target was read from.
    public var level: Double? { light.level }

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

    private var light: DwellingLevel
    private var ramp: StepRamp
    private var state: AmbienceState?

    public init(configuration: BrightnessConfiguration = .indoorKiosk) {
        self.configuration = configuration
        light = DwellingLevel(
            timeConstant: configuration.timeConstant, dwell: configuration.dwell,
            deadband: configuration.deadband)
        ramp = StepRamp(rate: configuration.rampRate)
    }

    /// The moving average of log10 lux; nil before the first valid sample.
    public var filteredLevel: Double? { light.filtered }

    /// What the output is heading for: the override's percent, or the light's.
    public var target: Int? { activeOverride?.percent ?? automaticTarget }

    /// When `advance(to:)` next has something to do: the next ramp step, or an override's end.
    /// Nil when the output rests at its target and no override will end: the loop then wakes
    /// only to sample.
    public var nextDeadline: Double? {
        let step = ramp.nextStep(towards: target.map(Double.init))
        guard let until = activeOverride?.until else { return step }
        return min(until, step ?? until)
    }

    /// Feeds one sample with the theme's state at it; a failed read (nil lux) only moves time on.
    public mutating func ingest(lux: Double?, state: AmbienceState?, at time: Double) {
        if state != self.state {
            self.state = state
            if let level { automaticTarget = configuration.percent(logLux: level, state: state) }
        }
        if let lux, lux.isFinite, light.judge(clampedLevel(lux), at: time), let level {
            automaticTarget = configuration.percent(logLux: level, state: state)
        }
        advance(to: time)
    }

    /// Ends an expired override, and takes one ramp step when one is due.
    public mutating func advance(to time: Double) {
        if let until = activeOverride?.until, until <= time + StepRamp.slack {
            activeOverride = nil
        }
        ramp.advance(towards: target.map(Double.init), at: time)
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
        ramp.rate = newConfiguration.rampRate
        light.timeConstant = newConfiguration.timeConstant
        light.dwell = newConfiguration.dwell
        light.deadband = newConfiguration.deadband
        light.forgetEvidence()
        if let level {
            let clamped = min(
                max(level, newConfiguration.logLuxSpan.lowerBound), newConfiguration.logLuxSpan.upperBound)
            light.move(to: clamped)
            automaticTarget = newConfiguration.percent(logLux: clamped, state: state)
        }
    }

    private func clampedLevel(_ lux: Double) -> Double {
        let span = configuration.logLuxSpan
        guard lux > 0 else { return span.lowerBound }
        return min(max(PortableMath.log10(lux), span.lowerBound), span.upperBound)
    }
}
