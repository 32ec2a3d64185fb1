extension OutputDescriptor {
    /// The state file (`state_file`, a key of the file's top level): the latest event, rewritten
    /// atomically, for whoever reads the theme now rather than follows it.
    static let stateFile = OutputDescriptor(table: nil, make: { _ in SinkOutput(.stateFile) })
}
