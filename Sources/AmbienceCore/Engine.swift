/// The latency-bounded threshold engine: a pure function of timestamped samples and override
/// commands. Nothing here reads a clock or sleeps; callers pass monotonic seconds.
///
/// A light-driven switch to X needs D of evidence: every valid raw sample since the evidence
/// began indicated X, or the filtered value did and the newest raw sample agrees. Raw evidence
/// wins, so a lagging filter never delays or contradicts a clear raw signal, and two
/// light-driven switches are at least D apart. Hence the state of an unambiguous level is
/// reached within D + P of its first sample, or within 2D + P when a switch has just happened.
public struct Engine: Sendable {
    public private(set) var configuration: EngineConfiguration

    /// What the sinks were last told; nil before the first valid sample or override.
    public private(set) var state: AmbienceState?
    /// The light-driven state, which goes on tracking the light while an override holds.
    public private(set) var automaticState: AmbienceState?
    public private(set) var activeOverride: Override?
    public private(set) var isFaulted = false
    /// The latest time the engine has been given: a caller never hands it an earlier one, or
    /// a fault raised could come after the sample that answers it.
    public private(set) var latestTime: Double

    public struct Override: Equatable, Sendable {
        public var state: AmbienceState
        /// Monotonic time at which the override ends by itself; nil holds until `auto`.
        public var until: Double?

        public init(state: AmbienceState, until: Double?) {
            self.state = state
            self.until = until
        }
    }

    /// A run of consecutive samples that all indicated `state`, since `since`.
    private struct Evidence: Sendable {
        var state: AmbienceState
        var since: Double
    }

    private var filter: EMAFilter
    private var lastValidTime: Double
    private var lastLux: Double?
    private var lastLightSwitch = -Double.infinity
    private var rawEvidence: Evidence?
    private var filteredEvidence: Evidence?
    private var hasDelivered = false

    public init(configuration: EngineConfiguration, startTime: Double) {
        self.configuration = configuration
        filter = EMAFilter(timeConstant: configuration.timeConstant)
        lastValidTime = startTime
        latestTime = startTime
    }

    public var filteredLux: Double? { filter.value }

    /// The next time at which `advance(to:)` has something to do (a fault or an override's end).
    public var nextDeadline: Double? {
        let fault = isFaulted ? nil : lastValidTime + configuration.faultAfter
        switch (fault, activeOverride?.until) {
        case (let fault?, let until?): return min(fault, until)
        case (let fault, let until): return fault ?? until
        }
    }

    /// Feeds one sample; a failed read (nil lux) only moves time on.
    public mutating func ingest(_ sample: Sample) -> [Event] {
        guard let lux = sample.lux, lux.isFinite else {
            return advance(to: sample.time)
        }
        var events = advance(to: sample.time, validSampleArrives: true)
        let time = sample.time
        if time - lastValidTime > configuration.latencyBound {
            // Evidence older than the latency bound says nothing about the light now.
            rawEvidence = nil
            filteredEvidence = nil
        }
        let filtered = filter.update(time: time, lux: lux)
        lastValidTime = time
        lastLux = lux
        if isFaulted {
            isFaulted = false
            events.append(event(.recovered, reason: nil, previous: nil, time: time, lux: lux))
        }
        guard let current = automaticState else {
            let first = configuration.thresholds.indicated(from: .regular, lux: lux)
            switchAutomatic(to: first, time: time, lux: lux, filtered: filtered)
            if activeOverride == nil { events.append(display(first, reason: .startup, time: time)) }
            return events
        }
        let thresholds = configuration.thresholds
        let rawIndicates = thresholds.indicated(from: current, lux: lux)
        rawEvidence = Self.extend(rawEvidence, indicating: rawIndicates, besides: current, at: time)
        filteredEvidence = Self.extend(
            filteredEvidence, indicating: thresholds.indicated(from: current, lux: filtered),
            besides: current, at: time)

        let dwell = configuration.minimumDwell
        guard time - lastLightSwitch >= dwell else { return events }
        var target: AmbienceState?
        if let raw = rawEvidence, time - raw.since >= dwell {
            target = raw.state
        } else if let smooth = filteredEvidence, time - smooth.since >= dwell, smooth.state == rawIndicates {
            target = smooth.state
        }
        guard let target else { return events }
        switchAutomatic(to: target, time: time, lux: lux, filtered: filtered)
        if activeOverride == nil { events.append(display(target, reason: .light, time: time)) }
        return events
    }

    /// Takes new thresholds and timing (a configuration reload) without a restart: the state,
    /// any override, a fault and the filtered value carry over; the evidence gathered so far is
    /// dropped, since it was judged against the old thresholds.
    public mutating func reconfigure(_ newConfiguration: EngineConfiguration) {
        configuration = newConfiguration
        filter.timeConstant = newConfiguration.timeConstant
        rawEvidence = nil
        filteredEvidence = nil
    }

    /// Moves time on without a sample: raises a fault or ends an expired override when due.
    public mutating func advance(to time: Double) -> [Event] {
        advance(to: time, validSampleArrives: false)
    }

    public enum OverrideCommand: Equatable, Sendable {
        /// Show `state` until `auto`, or for `duration` seconds.
        case hold(AmbienceState, duration: Double?)
        /// Back to the light-driven state.
        case auto
    }

    /// Overrides switch at once, exempt from the dwell.
    public mutating func apply(_ command: OverrideCommand, at time: Double) -> [Event] {
        var events = advance(to: time)
        switch command {
        case .hold(let wanted, let duration):
            activeOverride = Override(state: wanted, until: duration.map { time + $0 })
            if state != wanted {
                events.append(display(wanted, reason: .override, time: time))
            } else {
                // The state stays, the override is news: a `current` event says so.
                events.append(event(.current, reason: .override, previous: nil, time: time, lux: lastLux))
            }
        case .auto:
            events += endOverride(at: time)
        }
        return events
    }

    private mutating func advance(to time: Double, validSampleArrives: Bool) -> [Event] {
        latestTime = max(latestTime, time)
        var events: [Event] = []
        let faultTime = lastValidTime + configuration.faultAfter
        let faultDue = !isFaulted && (time > faultTime || (time == faultTime && !validSampleArrives))
        if let until = activeOverride?.until, until <= time, !(faultDue && faultTime < until) {
            events += endOverride(at: until)
        }
        if faultDue {
            isFaulted = true
            events.append(event(.fault, reason: nil, previous: nil, time: faultTime, lux: nil))
        }
        if let until = activeOverride?.until, until <= time {
            events += endOverride(at: until)
        }
        return events
    }

    private mutating func endOverride(at time: Double) -> [Event] {
        guard activeOverride != nil else { return [] }
        activeOverride = nil
        guard let automaticState, automaticState != state else {
            // The light agrees with the override that ends: no change, but its end is news.
            guard state != nil else { return [] }
            return [event(.current, reason: .auto, previous: nil, time: time, lux: lastLux)]
        }
        return [display(automaticState, reason: .auto, time: time)]
    }

    private mutating func switchAutomatic(
        to target: AmbienceState, time: Double, lux: Double, filtered: Double
    ) {
        automaticState = target
        lastLightSwitch = time
        let thresholds = configuration.thresholds
        rawEvidence = Self.extend(
            nil, indicating: thresholds.indicated(from: target, lux: lux), besides: target, at: time)
        filteredEvidence = Self.extend(
            nil, indicating: thresholds.indicated(from: target, lux: filtered), besides: target, at: time)
    }

    private static func extend(
        _ evidence: Evidence?, indicating indicated: AmbienceState, besides current: AmbienceState,
        at time: Double
    ) -> Evidence? {
        guard indicated != current else { return nil }
        if let evidence, evidence.state == indicated { return evidence }
        return Evidence(state: indicated, since: time)
    }

    private mutating func display(_ next: AmbienceState, reason: Event.Reason, time: Double) -> Event {
        let previous = state
        state = next
        let change = event(.change, reason: reason, previous: previous, time: time, lux: lastLux)
        hasDelivered = true
        return change
    }

    private func event(
        _ kind: Event.Kind, reason: Event.Reason?, previous: AmbienceState?, time: Double, lux: Double?
    ) -> Event {
        Event(
            kind: kind, state: state, previous: previous, animated: kind == .change && hasDelivered,
            reason: reason, lux: lux, filtered: filter.value, time: time, override: activeOverride?.state,
            overrideUntil: activeOverride?.until, faulted: isFaulted)
    }
}
