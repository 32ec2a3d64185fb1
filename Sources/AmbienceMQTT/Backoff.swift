/// When to try the broker again: exponential from `base` to `cap`, each delay drawn at random
/// from its upper half ("equal jitter"), so a fleet that lost its broker at the same moment does
/// not come back at the same moment. The random source is injected: tests fix it.
public struct Backoff: Sendable {
    public let base: Double
    public let cap: Double
    private var attempts = 0

    public init(base: Double = 1, cap: Double = 60) {
        self.base = base
        self.cap = cap
    }

    /// The delay before the next attempt; `random` returns a number in [0, 1).
    public mutating func nextDelay(random: () -> Double) -> Double {
        let ceiling = min(cap, base * Double(1 << min(attempts, 30)))
        attempts += 1
        return ceiling / 2 + ceiling / 2 * random()
    }

    /// A connection held: the next failure starts from `base` again.
    public mutating func reset() { attempts = 0 }
}
