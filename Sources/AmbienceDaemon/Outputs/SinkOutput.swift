import AmbienceCore
import AmbienceOutputs

/// The sinks of one part (the indicator lines, the named pipes, the state file): they take every
/// event line as it goes out and are polled, and nothing else.
final class SinkOutput: Output {
    private let kind: DaemonPart
    private var sinks: [any Sink] = []

    init(_ part: DaemonPart) {
        kind = part
    }

    var part: DaemonPart? { kind }

    func adopt(_ parts: DaemonParts) { sinks = parts.sinks(of: [kind]) }

    func deliver(_ event: Event) {
        for sink in sinks { sink.deliver(event) }
    }

    func poll(now: Double) {
        for sink in sinks { sink.poll(now: now) }
    }
}
