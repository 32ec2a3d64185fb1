import AmbienceCore

/// The reading side of the named pipe, for `ambience watch` and the kiosk: whole lines out of
/// whatever read(2) returned (`LineFramer`), each read as an event line in either format
/// (`EventLine.decode`), and the state to act on. Coalesced: of a batch of lines read together,
/// only the newest state counts, so a consumer that fell behind (a slow script) catches up in
/// one step instead of replaying every state it missed. Needs no clock: it acts on lines, not
/// on time.
public struct StateFollower: Sendable {
    public struct Update: Equatable, Sendable {
        public var state: AmbienceState
        /// The state acted on before, nil the first time.
        public var previous: AmbienceState?
        /// The raw lux of the newest line, as the daemon writes it (the shortest digits that
        /// read back as the same number); nil in `plain` or when unknown.
        public var lux: String?
    }

    /// The state last returned.
    public private(set) var acted: AmbienceState?
    private var framer = LineFramer()

    public init() {}

    /// Takes the bytes of one read; returns the newest state among the whole lines in them
    /// if it differs from the state last acted on.
    public mutating func consume<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Update? {
        var newest: (state: AmbienceState, lux: String?)?
        for line in framer.push(bytes) {
            if let decoded = Self.decode(line) { newest = decoded }
        }
        guard let newest, newest.state != acted else { return nil }
        defer { acted = newest.state }
        return Update(state: newest.state, previous: acted, lux: newest.lux)
    }

    /// The writer went away: a partial line will never be finished.
    public mutating func disconnected() {
        framer.close()
    }

    /// Over-long lines skipped since the last call (see `LineFramer`), for the log.
    public mutating func takeSkipped() -> Int { framer.takeSkipped() }

    /// The state and lux of a `change` or `current` line, in either format; nil for other
    /// events and for anything that is not an event line.
    static func decode(_ line: [UInt8]) -> (state: AmbienceState, lux: String?)? {
        guard let event = try? EventLine.decode(line), event.kind == .change || event.kind == .current,
            let state = event.state
        else { return nil }
        return (state, event.lux.map { EventLine.number($0) })
    }
}
