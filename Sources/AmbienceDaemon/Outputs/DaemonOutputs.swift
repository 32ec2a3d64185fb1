import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import AmbienceSystem

/// One kind of output as the daemon knows it: its table in the file, its device and how it is
/// made, all declared in the output's folder.
struct OutputDescriptor: Sendable {
    /// Its table (its keys declared once in its folder), read into and written from the daemon's
    /// configuration; nil for an output whose keys are the file's top level (`state_file`).
    let table: ConfigurationKey<DaemonTables>?
    /// What it drives; nil for an output with no device.
    let device: OutputDeviceDescriptor?
    /// The output, made once for the daemon's life.
    let make: @Sendable (OutputContext) -> any Output

    init(
        table: ConfigurationKey<DaemonTables>?, device: OutputDeviceDescriptor? = nil,
        make: @escaping @Sendable (OutputContext) -> any Output
    ) {
        self.table = table
        self.device = device
        self.make = make
    }
}

/// An output's device: the part a reload rebuilds, when it must, and how it is built.
struct OutputDeviceDescriptor: Sendable {
    typealias Build = @Sendable (DaemonConfiguration, any Devices) throws(OutputError) -> (any OutputDevice)?

    let part: DaemonPart
    /// Whether the device of `new` is another than that of `old`; other changes to its settings
    /// reach the output in `reconfigure`.
    let changed: @Sendable (_ old: DaemonConfiguration, _ new: DaemonConfiguration) -> Bool
    /// The device for a configuration, nil when it names none. A key it refuses is named within
    /// its output's table (`lines.regular`); the assembly places it under the table's name.
    let build: Build
}

/// What an output is made with: the daemon's log, its persistence and its wall clock.
struct OutputContext {
    let logger: Logger
    let overrides: OverridePersistence
    let wallClock: () -> Double
    let recordCapacity: Int
}

/// Every output of the daemon, in the order the file's tables are read and written, and each
/// sample, event and turn reaches them: the sinks in the order their lines go out (the indicator
/// lines, the pipes, then the state file); the backlight before the display, so that a fade's end
/// is told before the display's news of the same turn; the white point after them. A new output is one entry here.
struct DaemonOutputs {
    static let descriptors: [OutputDescriptor] = [
        .indicators, .pipes, .record, .backlight, .display, .whitePoint, .stateFile,
    ]

    let all: [any Output]

    init(_ context: OutputContext) {
        all = Self.descriptors.map { $0.make(context) }
    }

    /// The outputs whose device is among `parts`.
    func driving(_ parts: Set<DaemonPart>) -> [any Output] {
        withDevices(among: parts).map { $0.output }
    }

    /// The outputs whose device is among `parts`, each with its part, in their order.
    private func withDevices(among parts: Set<DaemonPart>) -> [(part: DaemonPart, output: any Output)] {
        zip(Self.descriptors, all).compactMap { descriptor, output in
            guard let part = descriptor.device?.part, parts.contains(part) else { return nil }
            return (part, output)
        }
    }

    /// The record of the light, which `ambience record` and the tests read.
    var record: RecordOutput? {
        for output in all {
            if let record = output as? RecordOutput { return record }
        }
        return nil
    }

    /// The outputs whose device is among `rebuilt` take their new devices.
    func adopt(_ parts: DaemonParts, rebuilt: Set<DaemonPart>) {
        for (part, output) in withDevices(among: rebuilt) { output.adopt(parts.devices[part]) }
    }
}
