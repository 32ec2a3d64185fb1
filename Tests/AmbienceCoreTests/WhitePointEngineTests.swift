import AmbienceCore
import Testing

/// The white point engine in simulated time, at 10 Hz: a room's colour given as CCT and lux.
struct WhitePointEngineTests {
    static let interval = 0.1
    static let daylight = ColourTemperature(kelvin: 6500, duv: 0.003)
    static let lamp = ColourTemperature(kelvin: 2700, duv: 0)

    /// Feeds `colour` at `lux` every 0.1 s from `start` (included) to `end` (not), returning
    /// every output seen, in mireds.
    @discardableResult
    static func feed(
        _ engine: inout WhitePointEngine, _ colour: ColourTemperature?, lux: Double? = 300,
        from start: Double,
        to end: Double, minute: Int? = nil
    ) -> [Double] {
        var outputs: [Double] = []
        var step = 0
        while start + Double(step) * interval < end - 1e-9 {
            engine.ingest(colour: colour, lux: lux, at: start + Double(step) * interval, minuteOfDay: minute)
            if let output = engine.output { outputs.append(output) }
            step += 1
        }
        return outputs
    }

    @Test func theFirstReadingIsShownAsItIs() {
        var engine = WhitePointEngine()
        Self.feed(&engine, Self.lamp, from: 0, to: 0.1)
        // 153.8 + 0.8 × (370.4 - 153.8) mireds is warmer than 4000 K: the clamp holds it there.
        #expect(engine.kelvin == 4000)
        var daylit = WhitePointEngine()
        Self.feed(&daylit, Self.daylight, from: 0, to: 0.1)
        #expect(daylit.kelvin == 6500)
    }

    @Test func strengthSetsHowFarTheDisplayFollows() throws {
        let half = try WhitePointConfiguration(warmest: 2000, strength: 0.5)
        #expect(abs(half.target(roomMired: 1e6 / 2700, atNight: false) - (153.846 + 370.370) / 2) < 0.01)
        let none = try WhitePointConfiguration(strength: 0)
        #expect(none.target(roomMired: 1e6 / 2700, atNight: false) == 1e6 / 6500)
        // A room bluer than the panel leaves it at its native white, the coolest by default.
        #expect(
            WhitePointConfiguration.roomWhite.target(roomMired: 1e6 / 10_000, atNight: false) == 1e6 / 6500)
    }

    /// Daylight, then the lamps alone: the display starts to move after the dwell, one mired at
    /// a time at most 5 a second, and is at 4000 K within the stated bound.
    @Test func aSteadyChangeArrivesWithinTheBoundInStepsNoEyeSees() throws {
        var engine = WhitePointEngine()
        Self.feed(&engine, Self.daylight, from: 0, to: 60)
        let configuration = engine.configuration
        let bound = configuration.latencyBound(sampleInterval: Self.interval)
        var previous = engine.output!
        var lastMove = -Double.infinity
        var arrived: Double?
        var time = 60.0
        while time < 60 + bound + 5 {
            engine.ingest(colour: Self.lamp, lux: 200, at: time, minuteOfDay: nil)
            let output = engine.output!
            if output != previous {
                #expect(time >= 60 + configuration.dwell - 1e-6, "moved at \(time), before the dwell")
                #expect(abs(output - previous) <= 1 + 1e-9)
                #expect(time - lastMove >= 1 / configuration.rampRate - 1e-6)
                lastMove = time
                previous = output
            }
            if arrived == nil, engine.kelvin == 4000 { arrived = time }
            time += Self.interval
        }
        let arrival = try #require(arrived)
        #expect(arrival - 60 <= bound, "arrived \(arrival - 60) s after the change, bound \(bound)")
        #expect(arrival - 60 >= configuration.dwell + (250 - 153.85) / configuration.rampRate - 1)
    }

    @Test func shadowsRedCarsAndGlintsMoveNothing() {
        var engine = WhitePointEngine()
        Self.feed(&engine, Self.daylight, from: 0, to: 30)
        let before = engine.output
        Self.feed(&engine, Self.daylight, lux: 2, from: 30, to: 45)  // a shadow: too dim to judge
        Self.feed(&engine, nil, lux: 500, from: 45, to: 55)  // a red car's glare: not white
        Self.feed(&engine, Self.lamp, lux: 300, from: 55, to: 70)  // 15 s of a warm glint
        Self.feed(&engine, Self.daylight, from: 70, to: 90)
        #expect(engine.output == before)
        #expect(engine.roomLevel == 1e6 / 6500)
    }

    @Test func dimLightHoldsTheWhite() {
        var engine = WhitePointEngine()
        Self.feed(&engine, Self.daylight, from: 0, to: 30)
        Self.feed(&engine, Self.lamp, lux: 5, from: 30, to: 600)
        #expect(engine.kelvin == 6500)
    }

    @Test func aFaultNeverMovesIt() {
        var engine = WhitePointEngine()
        Self.feed(&engine, Self.lamp, from: 0, to: 30)
        Self.feed(&engine, nil, lux: nil, from: 30, to: 300)
        #expect(engine.kelvin == 4000)
        // A fault between two halves of a dwell starts the evidence again.
        Self.feed(&engine, Self.daylight, from: 300, to: 315)
        Self.feed(&engine, nil, lux: nil, from: 315, to: 316)
        Self.feed(&engine, Self.daylight, from: 316, to: 331)
        #expect(engine.kelvin == 4000)
    }

    @Test func lightWanderingInsideTheDeadbandMovesNothing() {
        var engine = WhitePointEngine()
        Self.feed(&engine, ColourTemperature(kelvin: 5000, duv: 0), from: 0, to: 1)
        let start = engine.output
        for (index, kelvin) in [4820.0, 5190, 4850, 5150].enumerated() {  // within ±8 mireds
            let from = 1 + Double(index) * 40
            Self.feed(&engine, ColourTemperature(kelvin: kelvin, duv: 0), from: from, to: from + 40)
        }
        #expect(engine.output == start)
    }

    @Test func anOverrideHoldsThenTheRoomReturns() {
        var engine = WhitePointEngine()
        Self.feed(&engine, Self.daylight, from: 0, to: 10)
        engine.apply(.hold(kelvin: 5000, duration: 60), at: 10)
        #expect(engine.target == 200)
        Self.feed(&engine, Self.daylight, from: 10, to: 69)
        #expect(engine.kelvin == 5000)
        Self.feed(&engine, Self.daylight, from: 70, to: 100)
        #expect(engine.activeOverride == nil)
        #expect(engine.kelvin == 6500)
        engine.apply(.hold(kelvin: 3000, duration: nil), at: 100)
        Self.feed(&engine, Self.daylight, from: 100, to: 3600)
        #expect(engine.kelvin == 3000)
        engine.apply(.auto, at: 3600)
        #expect(engine.target == 1e6 / 6500)
    }

    @Test func aNightWindowWarmsItPastTheClamp() throws {
        var engine = WhitePointEngine(
            configuration: try WhitePointConfiguration(
                night: [DailyWindow("22:00-06:00")!], nightKelvin: 3400))
        Self.feed(&engine, Self.daylight, from: 0, to: 10, minute: 21 * 60 + 59)
        #expect(engine.kelvin == 6500)
        Self.feed(&engine, Self.daylight, from: 10, to: 200, minute: 22 * 60)
        #expect(engine.kelvin == 3400)
        Self.feed(&engine, Self.daylight, from: 200, to: 400, minute: 6 * 60)
        #expect(engine.kelvin == 6500)
    }

    @Test func itsSettingsAreChecked() {
        #expect(throws: ConfigurationError.self) { try WhitePointConfiguration(strength: 1.5) }
        #expect(throws: ConfigurationError.self) { try WhitePointConfiguration(warmest: 7000, coolest: 6500) }
        #expect(throws: ConfigurationError.self) { try WhitePointConfiguration(native: 500) }
        #expect(throws: ConfigurationError.self) { try WhitePointConfiguration(rampRate: 0) }
    }
}
