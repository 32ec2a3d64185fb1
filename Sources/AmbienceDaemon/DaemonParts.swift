import AmbienceOutputs
import AmbienceSensors

/// The daemon's parts, each built from its own settings: a reload rebuilds only those whose
/// settings changed, so a new pipe mode neither re-initialises the sensor nor blinks the lines.
public enum DaemonPart: CaseIterable, Hashable, Sendable {
    case sensor, indicators, pipes, stateFile, control, backlight, display

    /// The parts whose settings differ between two configurations.
    public static func changed(from old: DaemonConfiguration, to new: DaemonConfiguration) -> Set<DaemonPart>
    {
        var parts: Set<DaemonPart> = []
        if old.sensor != new.sensor { parts.insert(.sensor) }
        if old.gpio != new.gpio { parts.insert(.indicators) }
        if old.pipes != new.pipes { parts.insert(.pipes) }
        if old.stateFile != new.stateFile { parts.insert(.stateFile) }
        // Only another device is another part: new curves or timing go to the brightness engine.
        if old.backlight?.device != new.backlight?.device { parts.insert(.backlight) }
        if old.displayDevice != new.displayDevice || old.display?.touch != new.display?.touch {
            parts.insert(.display)
        }
        // One monitor for both: neither is rebuilt without the other.
        if !parts.isDisjoint(with: [.backlight, .display]),
            old.sharedMonitor != nil || new.sharedMonitor != nil
        {
            parts.formUnion([.backlight, .display])
        }
        if old.controlPipe != new.controlPipe || old.controlMode != new.controlMode
            || old.controlGroup != new.controlGroup
        {
            parts.insert(.control)
        }
        return parts
    }
}

/// The parts a configuration decides. An assembly fills in the parts it was asked for.
public struct DaemonParts {
    public var sensor: (any LightSensor)?
    public var indicators: (any Sink)?
    public var pipes: [any Sink]
    public var stateFile: (any Sink)?
    public var control: ControlPipe?
    public var backlight: (any Backlight)?
    public var display: (any DisplaySwitch)?
    /// The touchscreens that wake the display; nil without `[display] touch`.
    public var touch: TouchScreens?

    public init(
        sensor: (any LightSensor)? = nil, indicators: (any Sink)? = nil, pipes: [any Sink] = [],
        stateFile: (any Sink)? = nil, control: ControlPipe? = nil, backlight: (any Backlight)? = nil,
        display: (any DisplaySwitch)? = nil, touch: TouchScreens? = nil
    ) {
        self.sensor = sensor
        self.indicators = indicators
        self.pipes = pipes
        self.stateFile = stateFile
        self.control = control
        self.backlight = backlight
        self.display = display
        self.touch = touch
    }

    /// In the order events reach them: the lines first, then the pipes, then the state file.
    var sinks: [any Sink] { sinks(of: Set(DaemonPart.allCases)) }

    func sinks(of which: Set<DaemonPart>) -> [any Sink] {
        (which.contains(.indicators) ? indicators.map { [$0] } ?? [] : [])
            + (which.contains(.pipes) ? pipes : [])
            + (which.contains(.stateFile) ? stateFile.map { [$0] } ?? [] : [])
    }

    public func close(_ which: Set<DaemonPart>) {
        if which.contains(.indicators) { indicators?.close() }
        if which.contains(.pipes) { for pipe in pipes { pipe.close() } }
        if which.contains(.stateFile) { stateFile?.close() }
        if which.contains(.control) { control?.close() }
        if which.contains(.backlight) { backlight?.close() }
        if which.contains(.display) {
            display?.close()
            touch?.close()
        }
    }

    /// Takes `which` parts from `other`, leaving the rest as they are.
    mutating func replace(_ which: Set<DaemonPart>, with other: DaemonParts) {
        if which.contains(.sensor) { sensor = other.sensor }
        if which.contains(.indicators) { indicators = other.indicators }
        if which.contains(.pipes) { pipes = other.pipes }
        if which.contains(.stateFile) { stateFile = other.stateFile }
        if which.contains(.control) { control = other.control }
        if which.contains(.backlight) { backlight = other.backlight }
        if which.contains(.display) {
            display = other.display
            touch = other.touch
        }
    }
}
