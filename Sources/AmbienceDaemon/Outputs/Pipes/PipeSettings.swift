import AmbienceConfig
import AmbienceCore
import AmbienceOutputs
import TOML

extension OutputDescriptor {
    /// The named pipes (`[pipes]`): every event as a line, to every reader.
    static let pipes = OutputDescriptor(
        table: .table(
            "pipes", DaemonConfiguration.pipes, get: { $0.configuration.pipes },
            set: { $0.configuration.pipes = $1 }),
        device: .pipes,
        make: { _ in SinkOutput() })
}

extension DaemonPart {
    public static let pipes = DaemonPart("pipes")
}

extension OutputDeviceDescriptor {
    /// A named pipe per path, in their order.
    static let pipes = OutputDeviceDescriptor(
        part: .pipes, changed: { $0.pipes != $1.pipes },
        build: { configuration, devices throws(OutputError) in
            var pipes: [any Sink] = []
            for pipe in configuration.pipes.sinks {
                do throws(OutputError) {
                    pipes.append(try NamedPipeSink(pipe, renderTime: devices.renderTime, log: devices.log))
                } catch {
                    for made in pipes { made.close() }
                    throw error
                }
            }
            return SinkDevice(pipes)
        })
}

extension DaemonConfiguration {
    /// `[pipes]`.
    public var pipes: PipeSettings {
        get { outputs["pipes", default: PipeSettings()] }
        set { outputs["pipes", default: PipeSettings()] = newValue }
    }
}

extension DaemonConfiguration {
    public struct PipeSettings: Equatable, Sendable {
        public var paths: [String]
        public var format: EventLine.Format
        /// Permission bits of a pipe the daemon creates.
        public var mode: UInt32
        /// Group of a pipe the daemon creates; nil: the daemon's own.
        public var group: String?

        public init(
            paths: [String] = [NamedPipeSink.Configuration.defaultPath], format: EventLine.Format = .json,
            mode: UInt32 = UInt32(NamedPipeSink.Configuration.defaultMode),
            group: String? = nil
        ) {
            self.paths = paths
            self.format = format
            self.mode = mode
            self.group = group
        }

        /// One sink configuration per path.
        public var sinks: [NamedPipeSink.Configuration] {
            paths.map { NamedPipeSink.Configuration(path: $0, format: format, mode: mode, group: group) }
        }
    }

    static let pipes = ConfigurationTable<PipeSettings>([
        .value(
            "paths", read: { name, section, decoder in decodePaths(name, in: section, decoder: &decoder) },
            write: { "[" + $0.map(TOMLWriter.string).joined(separator: ", ") + "]" },
            get: { $0.paths }, set: { $0.paths = $1 }),
        .choice(
            "format", meaning: "a pipe format", among: EventLine.Format.allCases, spelled: { $0.rawValue },
            parsing: { EventLine.Format(rawValue: $0) }, get: { $0.format }, set: { $0.format = $1 }),
        .permissionBits("mode", get: { $0.mode }, set: { $0.mode = $1 }),
        .string("group", get: { $0.group }, set: { $0.group = $1 }, unset: "the daemon's own"),
    ])

    /// `[pipes] paths`: the valid paths of the array, each fault placed at its item.
    private static func decodePaths(
        _ name: String, in section: Section, decoder: inout ConfigurationDecoder
    ) -> [String]? {
        guard let (value, file) = decoder.value(name, in: section) else { return nil }
        guard let items = value.array else {
            decoder.fail(
                section.key(name),
                "must be an array of paths, like [\"/run/ambience/state\"],"
                    + " not \(value.describedType)", file: file, line: value.position.line)
            return nil
        }
        var paths: [String] = []
        for (index, item) in items.enumerated() {
            let key = section.key(name) + "[\(index)]"
            guard let path = item.string else {
                decoder.fail(
                    key, "must be a string, not \(item.describedType)", file: file, line: item.position.line)
                continue
            }
            if let path = decoder.checkAbsolute(path, key: key, file: file, line: item.position.line) {
                paths.append(path)
            }
        }
        return paths
    }
}
