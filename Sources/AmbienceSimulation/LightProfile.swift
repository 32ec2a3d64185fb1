import AmbienceCore

/// Light for the emulated chips: a function of simulated seconds since the start.
public enum LightProfile: Sendable {
    /// A day compressed into `length` seconds (86 400 is a real day): night, dawn, a cloudy
    /// morning, sunlight on the screen with a passing cloud, an afternoon indoors, dusk, a lamp.
    case day(length: Double)
    /// `before` lux, then `after` lux from `at` seconds on.
    case step(before: Double, after: Double, at: Double)
    /// Light wandering around `level` by up to ±`spread` (a fraction), as near a threshold.
    case noise(level: Double, spread: Double)
    /// Rows of seconds and lux, held from one row to the next.
    case trace([(time: Double, lux: Double)])

    /// The lux at `time`: a pure function, so a simulation is reproducible.
    public func lux(at time: Double) -> Double {
        switch self {
        case .day(let length):
            return Self.dayLight(hour: (time / length * 24).truncatingRemainder(dividingBy: 24))
        case .step(let before, let after, let at):
            return time < at ? before : after
        case .noise(let level, let spread):
            return max(0, level * (1 + spread * (2 * Self.jitter(time * 7.3) - 1)))
        case .trace(let rows):
            guard let first = rows.first else { return 0 }
            // The last row at or before `time`; rows are sorted by time.
            var low = 0
            var high = rows.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if rows[middle].time <= time { low = middle } else { high = middle }
            }
            return time < first.time ? first.lux : rows[low].lux
        }
    }

    public var source: LightSource { { lux(at: $0) } }

    /// The hour of the day at which the emulated sensor is unplugged in `day` (and for how many
    /// hours), so a demo shows a fault and its recovery.
    public static let dayHiccup = (hour: 16.7, hours: 0.2)

    static func dayLight(hour: Double) -> Double {
        let wobble = 1 + 0.04 * (2 * jitter(hour * 613) - 1)
        let base: Double
        switch hour {
        case ..<6: base = 2
        case ..<7.5: base = 2 * PortableMath.pow(200, (hour - 6) / 1.5)  // dawn: 2 → 400 lux
        case ..<11: base = 400 + 150 * PortableMath.sin(hour * 3)  // clouds drifting by a window
        case 13..<13.3: base = 1500  // a cloud over the sun
        case ..<15: base = 30_000  // sunlight on the screen
        case ..<19: base = 600
        case ..<20: base = 600 * PortableMath.pow(10 / 600, hour - 19)  // dusk: 600 → 10 lux
        case ..<22: base = 150  // a lamp
        default: base = 2
        }
        return base * wobble
    }

    /// A repeatable pseudo-random number in 0..<1 for any input.
    static func jitter(_ x: Double) -> Double {
        var bits = (x * 1000).rounded().bitPattern &* 0x9E37_79B9_7F4A_7C15
        bits ^= bits >> 29
        bits &*= 0xBF58_476D_1CE4_E5B9
        bits ^= bits >> 32
        return Double(bits >> 11) / Double(UInt64(1) << 53)  // UInt64: an Int is 32 bits on armhf
    }
}
