/// An output that moves to its target one unit at a time, at most `rate` units a second, so a
/// change is a slow fade and never a jump; the first value is shown as it is, there being
/// nothing on screen to move from. The backlight's percent and the white point's mireds.
struct StepRamp: Sendable {
    var rate: Double
    private(set) var output: Double?
    private var lastStep = -Double.infinity

    /// A step due at a sample's time computed by another sum of tenths is due at it: it must not
    /// cost the loop a second wake-up.
    static let slack = 1e-6

    init(rate: Double) {
        self.rate = rate
    }

    /// When the next step towards `target` is due; nil when the output rests there.
    func nextStep(towards target: Double?) -> Double? {
        guard let output, let target, output != target else { return nil }
        return lastStep + 1 / rate
    }

    /// Takes one step towards `target` when one is due (the last one lands on it).
    mutating func advance(towards target: Double?, at time: Double) {
        guard let target else { return }
        guard let current = output else {
            output = target
            lastStep = time
            return
        }
        guard current != target, time + Self.slack >= lastStep + 1 / rate else { return }
        output = target > current ? min(current + 1, target) : max(current - 1, target)
        lastStep = time
    }
}
