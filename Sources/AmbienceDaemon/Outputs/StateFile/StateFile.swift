import AmbienceOutputs

extension OutputDescriptor {
    /// The state file (`state_file`, a key of the file's top level): the latest event, rewritten
    /// atomically, for whoever reads the theme now rather than follows it.
    static let stateFile = OutputDescriptor(table: nil, device: .stateFile, make: { _ in SinkOutput() })
}

extension DaemonPart {
    public static let stateFile = DaemonPart("stateFile")
}

extension OutputDeviceDescriptor {
    static let stateFile = OutputDeviceDescriptor(
        part: .stateFile, changed: { $0.stateFile != $1.stateFile },
        build: { configuration, devices throws(OutputError) in
            SinkDevice([
                try StateFileSink(
                    path: configuration.stateFile, renderTime: devices.renderTime, log: devices.log)
            ])
        })
}
