import AmbienceCore
import AmbienceOutputs
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

/// The brightness engine beside the theme engine, as the daemon runs them, under the light
/// profiles `simulate` uses: its noise near a level, and a whole day.
struct BrightnessUnderSimulatedLightTests {
    /// Each sample's theme state and brightness, at 10 Hz from 0 to `end`.
    static func run(_ profile: LightProfile, until end: Double) -> [(time: Double, lux: Double, percent: Int)]
    {
        var theme = Engine(configuration: .indoorKiosk, startTime: 0)
        var brightness = BrightnessEngine()
        var outputs: [(Double, Double, Int)] = []
        for step in 0...Int(end * 10) {
            let time = Double(step) / 10
            let lux = profile.lux(at: time)
            _ = theme.ingest(Sample(time: time, lux: lux))
            brightness.ingest(lux: lux, state: theme.state, at: time)
            outputs.append((time, lux, brightness.output ?? -1))
        }
        return outputs
    }

    /// `simulate --profile noise:LEVEL:SPREAD`, at the spread the theme's bands absorb.
    @Test(arguments: [2.0, 35, 300, 1000, 20_000])
    func theSimulatorsNoiseNeverPumps(level: Double) {
        let outputs = Self.run(.noise(level: level, spread: 0.35), until: 3600)
        #expect(Set(outputs.map(\.percent)).count == 1, "the output moved under noise at \(level) lux")
    }

    /// The simulated day: night, dawn, clouds by a window, sunlight with a passing cloud, dusk, a
    /// lamp. The screen follows each in fades of one percent, and moves only a few hundred times.
    @Test func aSimulatedDayIsFollowedWithoutPumping() {
        let outputs = Self.run(.day(length: 86_400), until: 86_400)
        let changes = zip(outputs, outputs.dropFirst()).filter { $0.percent != $1.percent }
        #expect(changes.allSatisfy { abs($1.percent - $0.percent) == 1 })
        // Each change of direction needs a new level, so two are at least the dwell apart.
        var reversals: [Double] = []
        var direction = 0
        for (before, after) in changes {
            let now = after.percent > before.percent ? 1 : -1
            if direction != 0, now != direction { reversals.append(after.time) }
            direction = now
        }
        #expect(
            zip(reversals, reversals.dropFirst()).allSatisfy {
                $1 - $0 >= BrightnessConfiguration.indoorKiosk.dwell
            })
        let at = { (hour: Double) in outputs[Int(hour * 36_000)].percent }
        #expect(at(3) == 14)  // night, 2 lux: 10 + 25 × log(2) / log(50)
        #expect(at(14) == 100)  // sunlight on the screen
        #expect(at(13.2) < 90)  // the passing cloud, 1500 lux, 18 minutes: followed
        #expect(at(21) > at(3) && at(21) < at(16))  // the lamp, dimmer than the afternoon
        print("a simulated day: \(changes.count) one-percent steps, \(reversals.count) reversals")
    }

    /// The same day on a DDC/CI monitor (the emulated one, on the mock bus), driven as the
    /// daemon's loop does: asked at every sample, called again when it asks to be. A fade's
    /// steps become at most one Set a second, and the monitor ends where the engine does.
    @Test func aSimulatedDayOnADDCMonitorIsAFewHundredWritesASecondApart() {
        let clock = ManualClock(now: 0)
        let bus = MockI2CBus(clock: clock)
        let emulator = DDCMonitorEmulator.attach(to: bus)
        let monitor = DDCMonitor(bus: bus, name: "ddc:mock (0x37)", log: { _ in })
        let outputs = Self.run(.day(length: 86_400), until: 86_400)
        for (index, output) in outputs.enumerated() {
            let next = outputs.indices.contains(index + 1) ? outputs[index + 1].time : output.time + 2
            clock.sleep(until: output.time)
            monitor.set(percent: output.percent, now: output.time)
            var due = monitor.poll(now: output.time)
            while let wake = due, wake < next {
                clock.sleep(until: wake)
                due = monitor.poll(now: wake)
            }
        }
        let writes = emulator.setRequests
        let steps = zip(outputs, outputs.dropFirst()).filter { $0.percent != $1.percent }.count
        #expect(
            zip(writes, writes.dropFirst()).allSatisfy {
                $1.time - $0.time >= DDCMonitor.writeInterval - 1e-9
            })
        #expect(writes.count <= steps + 1)
        #expect(Int(emulator.brightness) == outputs.last?.percent)
        #expect(emulator.protocolViolations.isEmpty)
        print("a simulated day on a DDC/CI monitor: \(writes.count) Set VCP messages for \(steps) steps")
    }
}
