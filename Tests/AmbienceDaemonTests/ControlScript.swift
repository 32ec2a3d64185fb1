import AmbienceClient
import AmbienceDaemon
import AmbienceSystem
import AmbienceTestSupport

/// What happens to the daemon's world at simulated times: a line written to its control pipe
/// (the wait then wakes on the real descriptors for it) or a change to a device.
final class ControlScript: LoopWaiting {
    enum Action {
        case line(String, to: String)
        case act(() -> Void)
    }

    let clock: ManualClock
    private var actions: [(time: Double, action: Action)]

    init(clock: ManualClock, _ actions: [(time: Double, action: Action)]) {
        self.clock = clock
        self.actions = actions.sorted { $0.time < $1.time }
    }

    /// One control line at `time`.
    convenience init(clock: ManualClock, at time: Double, send line: String, to path: String) {
        self.init(clock: clock, [(time, .line(line, to: path))])
    }

    func wait(until deadline: Double, reading descriptors: [FileDescriptor], writing: [FileDescriptor])
        -> Wake
    {
        while let next = actions.first, next.time <= deadline {
            actions.removeFirst()
            clock.sleep(until: next.time)
            switch next.action {
            case .line(let line, let path):
                try? DaemonControl.send(line, to: path)
                if let pipe = descriptors.first { return .readable(pipe) }
            case .act(let change):
                change()
            }
        }
        clock.sleep(until: deadline)
        return .deadline
    }
}
