import AmbienceCore
import AmbienceOutputs
import AmbienceRecord
import AmbienceSystem

/// One of the daemon's outputs as the daemon routes to it: the samples, the events and the time
/// go in; what it adds to the lines, when it wants the loop back and the control lines it takes
/// come out. The daemon names none of them: at each hook it goes over `DaemonOutputs.all` in
/// their order. Every hook has a default that does nothing, so an output implements only its own.
/// Class-bound, so that it stays Embedded: each output keeps its state in place.
protocol Output: AnyObject {
    /// Takes its freshly built device (its descriptor's; nil: none configured). After a reload
    /// rebuilt it, it is told the state again, as a new reader would be.
    func adopt(_ device: (any OutputDevice)?)

    /// At start: a fresh state for `configuration`, before any line goes out.
    func start(_ configuration: DaemonConfiguration, at time: Double)

    /// After the theme's persisted override: its own persisted state taken up, and the device set
    /// as it should be before the first line, which carries it.
    func restore(at time: Double)

    /// A reloaded configuration takes over from `running`.
    func reconfigure(from running: DaemonConfiguration, to next: DaemonConfiguration, at time: Double)

    /// A sample is in, before its events go out: what the output makes of it, and what it adds to
    /// the record's row.
    func observe(_ row: inout LightRecord.Row)

    /// The sample's row as every output completed it, once its events have gone out.
    func sampled(_ row: LightRecord.Row)

    /// Puts its part of the news on an event line about to go out.
    func annotate(_ event: inout Event)

    /// An event line as it goes out. Returns at once, whatever a consumer is doing.
    func deliver(_ event: Event)

    /// Every turn of the loop: moves on to `now` and drives its device.
    func advance(now: Double) -> OutputTurn

    /// At least once a second: notices new readers, retries what failed.
    func poll(now: Double)

    /// The descriptors it waits on, and what it does when one is readable.
    var watched: [FileDescriptor] { get }
    func read(_ descriptor: FileDescriptor, at time: Double)

    /// A line of the control pipe; false when the line is not this output's.
    func take(_ input: ControlPipe.Input, from control: ControlPipe, at time: Double) -> Bool

    /// The daemon stops: the device left as a stopped daemon must leave it.
    func stop(at time: Double)
}

/// What an output wants after a turn of the loop.
struct OutputTurn {
    /// When the loop must come back for it.
    var due: Double?
    /// Whether `due` may be taken with a wake-up due within a microsecond after it (a ramp step
    /// due with the sample), rather than waking the loop once more for it.
    var ridesOnNearbyWake = false
    /// Whether the lines must say something new (a fade's end, the display asleep or awake).
    var hasNews = false

    static let idle = OutputTurn()
}

extension Output {
    func adopt(_ device: (any OutputDevice)?) {}
    func start(_ configuration: DaemonConfiguration, at time: Double) {}
    func restore(at time: Double) {}
    func reconfigure(from running: DaemonConfiguration, to next: DaemonConfiguration, at time: Double) {}
    func observe(_ row: inout LightRecord.Row) {}
    func sampled(_ row: LightRecord.Row) {}
    func annotate(_ event: inout Event) {}
    func deliver(_ event: Event) {}
    func advance(now: Double) -> OutputTurn { .idle }
    func poll(now: Double) {}
    var watched: [FileDescriptor] { [] }
    func read(_ descriptor: FileDescriptor, at time: Double) {}
    func take(_ input: ControlPipe.Input, from control: ControlPipe, at time: Double) -> Bool { false }
    func stop(at time: Double) {}
}
