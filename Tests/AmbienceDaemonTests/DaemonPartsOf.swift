import AmbienceDaemon
import AmbienceOutputs
import AmbienceSensors

extension DaemonParts {
    /// Parts built by a test, each named by what it is rather than wrapped as its output's device.
    static func of(
        sensor: (any LightSensor)? = nil, indicators: (any Sink)? = nil, pipes: [any Sink] = [],
        stateFile: (any Sink)? = nil, control: ControlPipe? = nil, backlight: (any Backlight)? = nil,
        display: (any DisplaySwitch)? = nil, touch: TouchScreens? = nil, record: RecordStore? = nil
    ) -> DaemonParts {
        var devices: [DaemonPart: any OutputDevice] = [.pipes: SinkDevice(pipes)]
        devices[.indicators] = indicators.map { SinkDevice([$0]) }
        devices[.stateFile] = stateFile.map { SinkDevice([$0]) }
        devices[.backlight] = backlight.map { BacklightDevice($0) }
        devices[.display] = display.map { DisplayDevices($0, touch: touch) }
        devices[.record] = record
        return DaemonParts(sensor: sensor, control: control, devices: devices)
    }

    var backlight: (any Backlight)? { (devices[.backlight] as? BacklightDevice)?.backlight }
    var display: (any DisplaySwitch)? { (devices[.display] as? DisplayDevices)?.power }
    var pipes: [any Sink] { (devices[.pipes] as? SinkDevice)?.sinks ?? [] }
}

/// The keys a configuration refusal places, or nil for another error.
func refusedKeys(_ error: any Error) -> [String?]? {
    guard let error = error as? DaemonError, case .configuration(let errors) = error else { return nil }
    return errors.errors.map(\.key)
}
