import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import AmbienceTestSupport
import Testing

/// A light in the daemon's world: how bright, and what colour, at a time.
final class ColouredLamp: @unchecked Sendable {
    var scene: (Double) -> (lux: Double, kelvin: Double)

    init(_ scene: @escaping (Double) -> (lux: Double, kelvin: Double)) { self.scene = scene }
}

/// The daemon with `[whitepoint]`, reading the room's colour from the TCS34725's driver on its
/// emulator (whose counts come from the light's spectrum), in simulated time: what the lines say
/// of the room and the white, the ramp's steps, what moves nothing, and the override.
struct WhitePointDaemonTests {
    let scratch = TemporaryDirectory()
    let clock = ManualClock(now: 0)
    let sink = RecordingSink()
    let log = LogRecorder()

    func configuration(whitePoint: WhitePointSettings? = WhitePointSettings()) -> DaemonConfiguration {
        var configuration = daemonConfiguration(interval: 0.1)
        configuration.controlPipe = scratch.file("control")
        configuration.stateDirectory = scratch.file("state")
        configuration.whitePoint = whitePoint
        return configuration
    }

    /// The daemon over a TCS34725 under `lamp`, or (`colourBlind`) a sensor that gives lux alone.
    func daemon(
        _ configuration: DaemonConfiguration, waiter: any LoopWaiting, lamp: ColouredLamp,
        colourBlind: Bool = false, bus: MockI2CBus? = nil
    ) -> Daemon {
        let sensor: any LightSensor
        if colourBlind {
            sensor = FakeSensor(clock: clock, conversion: 0) { lamp.scene($0).lux }
        } else {
            let bus = bus ?? MockI2CBus(clock: clock)
            let clock = clock
            bus.attach(
                TCS34725Emulator(
                    kelvin: { _ in lamp.scene(clock.now).kelvin }, light: { lamp.scene($0).lux }),
                at: 0x29)
            sensor = TCS34725(bus: bus, clock: clock)
        }
        let sink = sink
        return Daemon(
            configuration: configuration, clock: clock, waiter: waiter,
            logger: Logger(prefixed: false, write: log.record),
            overrides: { OverrideStore(directory: $0.stateDirectory) },
            assemble: { configuration, _ throws(DaemonError) in
                do {
                    return DaemonParts.of(
                        sensor: sensor, pipes: [sink],
                        control: try ControlPipe(path: configuration.controlPipe, log: { _ in }))
                } catch {
                    throw .unavailable("\(error)")
                }
            },
            reload: brokenReload("no reload"))
    }

    var whites: [(time: Double, kelvin: Int)] {
        sink.events.compactMap { event in event.whitePoint?.display.map { (event.time, $0) } }
    }

    static func mired(_ kelvin: Int) -> Double { 1e6 / Double(kelvin) }

    /// Lamplight (300 lx, 2700 K) for a minute, then daylight (3000 lx, 6500 K). The first white
    /// is shown as it is: the room's 2700 K, 80 % of the way from the panel's 6500 K, is below
    /// the warmest 4000 K. Daylight then moves it to the native white a mired at a time, no
    /// faster than the ramp, within the stated bound, each step a line.
    @Test func theWhiteFollowsTheLampThenDaylightAMiredAtATime() throws {
        let lamp = ColouredLamp { $0 < 60 ? (300, 2700) : (3000, 6500) }
        try daemon(configuration(), waiter: ScriptedWaiter(clock: clock, script: []), lamp: lamp).run(
            until: 150)
        let first = try #require(sink.events.first?.whitePoint)
        #expect(first.display == 4000)
        #expect(abs(Self.mired(try #require(first.room)) - Self.mired(2700)) < 6)
        let ramp = whites.filter { $0.time >= 60 }
        #expect(ramp.last?.kelvin == 6500)
        let steps = zip(ramp, ramp.dropFirst())
        // One mired, and the lines' whole kelvin: half a kelvin each side, 0.06 mired at 4000 K.
        #expect(steps.allSatisfy { Self.mired($0.kelvin) - Self.mired($1.kelvin) <= 1.07 })
        #expect(steps.allSatisfy { $1.time - $0.time >= 0.2 - 1e-6 })
        let bound = WhitePointConfiguration.roomWhite.latencyBound(sampleInterval: 0.1)
        #expect(try #require(ramp.last?.time) - 60 <= bound)
        #expect(abs(Self.mired(try #require(sink.events.last?.whitePoint?.room)) - Self.mired(6500)) < 6)
        // The log says where it settled, once a change, not at every step.
        let settled = log.lines.filter { $0.contains("white point: the display at") }
        #expect(
            settled.count == 2 && settled[0].contains("at 4000 K (room 2") && settled[1].contains("at 6500 K")
        )
        // Once there, nothing more is said.
        #expect(sink.events.last.map { $0.time < 60 + bound } == true)
    }

    /// Under a steady lamp: a car's daylight glint through the window (10 s at 6500 K), a shadow
    /// too dim to measure (1 lx for 15 s) and a sensor unplugged for 5 s move nothing.
    @Test func aGlintAShadowAndAFaultMoveNothing() throws {
        let lamp = ColouredLamp { time in
            switch time {
            case 30..<40: (800, 6500)
            case 50..<65: (1, 2000)
            default: (300, 3000)
            }
        }
        let bus = MockI2CBus(clock: clock)
        let unplug = ControlScript(
            clock: clock, [(80, .act { bus.unplug(0x29) }), (85, .act { bus.replug(0x29) })])
        try daemon(configuration(), waiter: unplug, lamp: lamp, bus: bus).run(until: 120)
        #expect(log.lines.contains { $0.contains("reading again") })
        #expect(Set(whites.map(\.kelvin)) == [4000])
        #expect(Set(sink.events.compactMap { $0.whitePoint?.room }).count == 1)
    }

    @Test func anOverrideRampsPersistsAndAutoGivesItBack() throws {
        let configuration = configuration()
        let lamp = ColouredLamp { _ in (300, 2700) }
        let hold = ControlScript(
            clock: clock, at: 10.05, send: "whitepoint 5000K for 2h", to: configuration.controlPipe)
        try daemon(configuration, waiter: hold, lamp: lamp).run(until: 60)
        #expect(whites.last?.kelvin == 5000)
        let store = OverrideStore(directory: configuration.stateDirectory)
        let path = WhitePointEngine.Command.path(in: store)
        #expect(try FileSystem.firstLine(of: path).hasPrefix("5000 until "))

        // A restart: the override is taken up at once, and the white ramps there from the room's.
        try daemon(configuration, waiter: ScriptedWaiter(clock: clock, script: []), lamp: lamp).run(
            until: 120)
        #expect(whites.last?.kelvin == 5000)

        let auto = ControlScript(
            clock: clock, at: 120.05, send: "whitepoint auto", to: configuration.controlPipe)
        try daemon(configuration, waiter: auto, lamp: lamp).run(until: 180)
        #expect(whites.last?.kelvin == 4000)
        #expect(!FileSystem.exists(path))
        #expect(log.lines.contains { $0.contains("white point: white held at 5000 K for 7200 s") })
    }

    @Test func withoutTheTableTheLinesSayNothingOfColour() throws {
        let lamp = ColouredLamp { _ in (300, 2700) }
        let configuration = configuration(whitePoint: nil)
        let hold = ControlScript(
            clock: clock, at: 5.05, send: "whitepoint 5000", to: configuration.controlPipe)
        try daemon(configuration, waiter: hold, lamp: lamp).run(until: 10)
        let event = try #require(sink.events.first)
        #expect(event.whitePoint == nil)
        let line = try #require(EventLine.encode(event, format: .json, time: "0"))
        #expect(!line.contains("cct") && !line.contains("whitepoint"))
        #expect(
            log.lines.contains { $0.contains("ignored a whitepoint line: no [whitepoint] is configured") })
    }

    /// A sensor without colour channels: the keys are there (null), and the white is never set.
    @Test func aSensorWithoutColourLeavesTheWhiteAlone() throws {
        let lamp = ColouredLamp { _ in (300, 2700) }
        try daemon(
            configuration(), waiter: ScriptedWaiter(clock: clock, script: []), lamp: lamp, colourBlind: true
        )
        .run(until: 30)
        #expect(sink.events.allSatisfy { $0.whitePoint == WhitePointNews(room: nil, display: nil) })
        let line = EventLine.encode(try #require(sink.events.first), format: .json, time: "0") ?? ""
        #expect(line.hasSuffix(",\"cct\":null,\"whitepoint\":null}\n"))
    }
}
