import AmbienceI2C

/// An ams (TAOS) chip's analog gain, as the TSL2591 and the TCS3472x both have four of them.
protocol AmsGain: RawRepresentable<Int>, CaseIterable, Comparable {
    /// The gain as a factor of the lowest.
    var factor: Double { get }
}

/// What the TSL2591's and the TCS3472x's drivers share between a conversion asked for and a
/// reading: AVALID looked for a bounded number of times, and the automatic gain's choice.
struct AmsConversion {
    /// Late data are waited for in steps of 5 % of the integration, at most 4 times.
    static let maximumLateChecks = 4
    static let lateStep = 0.05
    /// STATUS's AVALID: a conversion is in the data registers.
    static let valid: UInt8 = 0x01
    private var lateChecks = 0
    private var gainSwitches = 0

    /// A new conversion was asked for (set up, or a gain changed): no late check yet.
    mutating func restarted() { lateChecks = 0 }

    /// A new measurement: no gain switched for it yet.
    mutating func measurementStarts() {
        lateChecks = 0
        gainSwitches = 0
    }

    /// STATUS as just read: nil when AVALID (bit 0) says the conversion is there, else when to
    /// look again; an error once the late checks are spent.
    mutating func lookAgain(status: UInt8, integration seconds: Double, now: Double, sensor: String)
        throws(SensorError) -> Double?
    {
        guard status & Self.valid == 0 else { return nil }
        lateChecks += 1
        guard lateChecks <= Self.maximumLateChecks else {
            throw SensorError(
                .unexpectedChip("no conversion completed (STATUS 0x\(hexadecimal(status, digits: 2)))"),
                sensor: sensor)
        }
        return now + seconds * Self.lateStep
    }

    /// The gain to switch to before this conversion is taken, nil to take it: `preferred` for
    /// the counts seen, while the measurement has switches left. Going down one gain at a time
    /// needs one switch fewer than there are gains; one more would only come from light
    /// changing during the measurement, and is left to the next one.
    mutating func gainSwitch<Gain: AmsGain>(from current: Gain, to preferred: Gain) -> Gain? {
        guard preferred != current, gainSwitches < Gain.allCases.count - 1 else { return nil }
        gainSwitches += 1
        lateChecks = 0
        return preferred
    }

    /// Leave for the next lower gain when the brightest channel reaches 90 % of saturation;
    /// climb only to a gain where the counts, scaled by the gain ratio, would stay under 40 %
    /// of it: a band of 2.25 between leaving and coming back, wider than light that wobbles
    /// ±25 % (a factor 1.67) and than the gains' part-to-part spread, so no light level makes
    /// the driver switch back and forth. Climbing may skip gains: the counts say how far.
    static func preferredGain<Gain: AmsGain>(current: Gain, brightest counts: Double, saturation: Double)
        -> Gain
    {
        if counts >= 0.9 * saturation {
            return Gain(rawValue: current.rawValue - 1) ?? current
        }
        var chosen = current
        for higher in Gain.allCases where higher > current {
            if counts * higher.factor / current.factor < 0.4 * saturation { chosen = higher }
        }
        return chosen
    }
}
