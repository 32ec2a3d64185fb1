import AmbienceCore

/// A display's power as its device reads back, under the one rule every display driver that
/// reads its power follows: a reading asked for before the latest wish, or before the latest
/// write, may describe the device before it was told, so it never counts as what the device is
/// now. From a wish until a reading asked after it (and after its write) answers, the power is
/// unknown, and the daemon reports what it asked. So a sleep decided while a power read is in
/// flight, or while the bus rests after one, is never taken for a display that turned itself
/// back on.
///
/// A driver tells it what it does: `wished` when asked for another power, `written` when a wish
/// went out, `asking` when it sends a read (keeping the token), `answered` with the token when
/// the reply comes, and `forget` on a fault.
public struct PowerReadback: Sendable {
    /// When a reading was asked: how many wishes and writes there had been.
    public struct Token: Equatable, Sendable {
        fileprivate let wishes: Int
        fileprivate let writes: Int
    }

    /// What the device last said in a reading that counts; nil while unknown.
    public private(set) var power: DisplayPower?
    private var wishes = 0
    private var writes = 0

    public init() {}

    /// Another power is asked for: nothing read before it says what the device is.
    public mutating func wished() {
        wishes += 1
        power = nil
    }

    /// A wish went out. `known` is the power when the driver knows it without a read (a monitor
    /// that a read would wake is not read while it sleeps: it is what was written).
    public mutating func written(known: DisplayPower? = nil) {
        writes += 1
        power = known
    }

    /// A reading is asked for now; its answer is given with this token.
    public func asking() -> Token { Token(wishes: wishes, writes: writes) }

    /// Whether a reading asked for with `token` counts: no wish made and none written since.
    public func counts(_ token: Token) -> Bool { token == asking() }

    /// A reading's answer: it becomes the power when it counts.
    public mutating func answered(_ reading: DisplayPower, to token: Token) {
        if counts(token) { power = reading }
    }

    /// The device cannot be asked (a fault): its power is unknown until it answers again, or is
    /// `assume`d.
    public mutating func forget() {
        power = nil
    }

    /// The power the driver takes without a reading: a TV without hot-plug is asleep, and one
    /// that never reports its power is reported as last told.
    public mutating func assume(_ power: DisplayPower?) {
        self.power = power
    }
}
