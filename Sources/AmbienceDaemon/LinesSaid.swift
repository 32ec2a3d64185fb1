import AmbienceCore

/// What the event lines have said: the state's last word (a change, or a `current` for news
/// between samples), the fault while one holds, and the latest valid reading. A line announcing
/// news between samples repeats them; a sink a reload rebuilt is told them first.
struct LinesSaid {
    private(set) var lastChange: Event?
    private(set) var lastFault: Event?
    var lastLux: Double?

    mutating func remember(_ event: Event) {
        switch event.kind {
        // A `current` event from the engine is an override begun or ended without a change.
        case .change, .current: lastChange = event
        case .fault: lastFault = event
        case .recovered: lastFault = nil
        }
    }

    /// What a new reader must be told to show what the others show.
    var forNewReader: [Event] { [lastChange, lastFault].compactMap { $0 } }
}
