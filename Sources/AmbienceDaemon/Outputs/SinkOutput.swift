import AmbienceCore
import AmbienceOutputs

/// The sinks of one output as its device: the indicator lines, the named pipes or the state file.
public final class SinkDevice: OutputDevice {
    public let sinks: [any Sink]

    public init(_ sinks: [any Sink]) {
        self.sinks = sinks
    }

    public func close() {
        for sink in sinks { sink.close() }
    }
}

/// An output whose device is sinks (the indicator lines, the named pipes, the state file): they
/// take every event line as it goes out and are polled, and nothing else.
final class SinkOutput: Output {
    private var sinks: [any Sink] = []

    func adopt(_ device: (any OutputDevice)?) { sinks = (device as? SinkDevice)?.sinks ?? [] }

    func deliver(_ event: Event) {
        for sink in sinks { sink.deliver(event) }
    }

    func poll(now: Double) {
        for sink in sinks { sink.poll(now: now) }
    }
}
