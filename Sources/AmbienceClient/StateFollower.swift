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

    /// The display's power and what the daemon asks of a Wayland session's outputs, as the
    /// newest line says them (`display`, `display_asked`).
    public struct Display: Equatable, Sendable {
        public var power: DisplayPower?
        public var asked: DisplayPower?
    }

    /// The display's white as the lines say it: whole kelvin, nil when they carry none.
    public struct White: Equatable, Sendable {
        public var kelvin: Int?
    }

    /// The state last returned.
    public private(set) var acted: AmbienceState?
    private var framer = LineFramer()
    private var display: Display?
    /// The white the newest line said, and the one last taken.
    private var white: White?
    private var whiteTaken: White?

    public init() {}

    /// Takes the bytes of one read; returns the newest state among the whole lines in them
    /// if it differs from the state last acted on.
    public mutating func consume<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Update? {
        var newest: (state: AmbienceState, lux: String?)?
        for line in framer.push(bytes) {
            guard let event = Self.decode(line), let state = event.state else { continue }
            newest = (state, event.lux.map { EventLine.number($0) })
            display = Display(power: event.display, asked: event.displayAsked)
            white = White(kelvin: event.whitePoint)
        }
        guard let newest, newest.state != acted else { return nil }
        defer { acted = newest.state }
        return Update(state: newest.state, previous: acted, lux: newest.lux)
    }

    /// The display as the newest line said it, once per batch of lines that had one: the kiosk
    /// acts on each, state changed or not.
    public mutating func takeDisplay() -> Display? {
        defer { display = nil }
        return display
    }

    /// The display's white when the newest line says another than the one last taken: the kiosk
    /// multiplies its pages by it as it ramps, state changed or not.
    public mutating func takeWhite() -> White? {
        guard let white, white != whiteTaken else { return nil }
        whiteTaken = white
        return white
    }

    /// The writer went away: a partial line will never be finished.
    public mutating func disconnected() {
        framer.close()
    }

    /// Over-long lines skipped since the last call (see `LineFramer`), for the log.
    public mutating func takeSkipped() -> Int { framer.takeSkipped() }

    /// A `change` or `current` line, in either format; nil for other events and for anything
    /// that is not an event line.
    static func decode(_ line: [UInt8]) -> EventLine.Decoded? {
        guard let event = try? EventLine.decode(line), event.kind == .change || event.kind == .current
        else { return nil }
        return event
    }
}
