import AmbienceOutputs
import AmbienceSensors

/// What an output drives, as a reload rebuilds it: closed when its settings change or the daemon
/// stops. Class-bound, so that an output can take its own kind back out of the parts in Embedded.
public protocol OutputDevice: AnyObject {
    func close()
}

/// One of the daemon's parts, each built from its own settings: a reload rebuilds only those
/// whose settings changed, so a new pipe mode neither re-initialises the sensor nor blinks the
/// lines. The inputs are parts of their own; each output's device is the part its folder names.
public struct DaemonPart: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { name }

    public static let sensor = DaemonPart("sensor")
    public static let control = DaemonPart("control")

    /// Every part: the inputs, then each output's device.
    public static var all: Set<DaemonPart> {
        Set([.sensor, .control] + DaemonOutputs.descriptors.compactMap { $0.device?.part })
    }

    /// The parts whose settings differ between two configurations.
    public static func changed(from old: DaemonConfiguration, to new: DaemonConfiguration) -> Set<DaemonPart>
    {
        var parts: Set<DaemonPart> = []
        if old.sensor != new.sensor { parts.insert(.sensor) }
        if old.controlPipe != new.controlPipe || old.controlMode != new.controlMode
            || old.controlGroup != new.controlGroup
        {
            parts.insert(.control)
        }
        for descriptor in DaemonOutputs.descriptors {
            if let device = descriptor.device, device.changed(old, new) { parts.insert(device.part) }
        }
        return parts
    }
}

/// The parts a configuration decides. An assembly fills in the parts it was asked for.
public struct DaemonParts {
    public var sensor: (any LightSensor)?
    public var control: ControlPipe?
    /// Each output's device, under its part.
    public var devices: [DaemonPart: any OutputDevice]

    public init(
        sensor: (any LightSensor)? = nil, control: ControlPipe? = nil,
        devices: [DaemonPart: any OutputDevice] = [:]
    ) {
        self.sensor = sensor
        self.control = control
        self.devices = devices
    }

    /// Closes `which`, the outputs' devices in the outputs' order.
    public func close(_ which: Set<DaemonPart>) {
        for descriptor in DaemonOutputs.descriptors {
            if let part = descriptor.device?.part, which.contains(part) { devices[part]?.close() }
        }
        if which.contains(.control) { control?.close() }
    }

    /// Takes `which` parts from `other`, leaving the rest as they are.
    mutating func replace(_ which: Set<DaemonPart>, with other: DaemonParts) {
        if which.contains(.sensor) { sensor = other.sensor }
        if which.contains(.control) { control = other.control }
        for part in which where part != .sensor && part != .control { devices[part] = other.devices[part] }
    }
}
