import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceDisplayProtocols
import AmbienceI2C
import AmbienceOutputs
import AmbienceSimulation
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon driving a DDC/CI monitor, built by the assembly from `device = "ddc:1"`, with the
/// emulated monitor on a mock bus behind the opener, in simulated time.
struct DDCDaemonTests {
    let clock = ManualClock(now: 0)
    let bus: MockI2CBus
    let monitor: DDCMonitorEmulator
    let sink = RecordingSink()
    let log = LogRecorder()

    static let display = I2CAddress(rawValue: DDCCI.displayAddress)
    static let edid = I2CAddress(rawValue: DDCCI.edidAddress)

    init() {
        bus = MockI2CBus(name: "i2c-1", clock: clock)
        monitor = DDCMonitorEmulator.attach(to: bus)
    }

    func daemon(waiter: ScriptedWaiter? = nil, light: @escaping (Double) -> Double?) throws -> Daemon {
        var configuration = daemonConfiguration(interval: 0.1)
        var settings = BacklightSettings()
        settings.device = .ddc(.number(1))
        configuration.backlight = settings
        let sensor = FakeSensor(clock: clock, conversion: 0, light: light)
        let logger = Logger(prefixed: true, write: log.record)
        let backlight = try MachineDevices(
            clock: clock, logger: logger, openDDC: { [bus] _ throws(I2CError) in bus }
        )
        .backlight(settings.device)
        let sink = sink
        return Daemon(
            configuration: configuration, clock: clock,
            waiter: waiter ?? ScriptedWaiter(clock: clock, script: []),
            logger: logger, overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor, pipes: [sink], backlight: backlight) },
            reload: brokenReload("no reload"))
    }

    /// The percent the monitor shows now (its maximum is 100).
    var shown: Int { Int(monitor.brightness) }

    @Test func brightnessFollowsTheLightThroughTheMonitorAtMostOneWriteASecond() throws {
        try daemon { $0 < 30 ? 5 : 3000 }.run(until: 60)
        let settings = BrightnessConfiguration.indoorKiosk
        let bright = settings.percent(logLux: log10(3000), state: .contrast)
        #expect(shown == bright)
        #expect(sink.events.last?.brightness == bright)
        let writes = monitor.setRequests
        #expect(writes.first?.value == UInt16(settings.percent(logLux: log10(5), state: .regular)))
        #expect(
            zip(writes, writes.dropFirst()).allSatisfy {
                $1.time - $0.time >= DDCMonitor.writeInterval - 1e-6
            })
        // The fade's many steps became a few writes, and a steady screen none: the daemon asks on
        // every pass, the monitor is written only when the value changes.
        let fade = bright - settings.percent(logLux: log10(5), state: .regular)
        #expect(writes.count <= 2 + fade / 10 + 1)
        #expect(writes.allSatisfy { $0.time < 30 + settings.latencyBound(sampleInterval: 0.1) + 1 })
        #expect(monitor.protocolViolations.isEmpty)
        #expect(!log.lines.contains { $0.contains("ddc:1") })
    }

    /// At rest the monitor costs the loop no wake-up: only the first reading of its maximum
    /// (the reply 40 ms after the request, the rest after it) comes between samples.
    @Test func aSteadyScreenWakesTheLoopOnlyToSample() throws {
        let waiter = ScriptedWaiter(clock: clock, script: [])
        try daemon(waiter: waiter) { _ in 300 }.run(until: 60)
        #expect(monitor.setRequests.count == 1)
        #expect(waiter.waits <= 600 + 2)
    }

    @Test func aMonitorThatStopsAnsweringIsOneFaultTheThemeGoesOnAndItRecovers() throws {
        let bus = bus
        var unplugged = false
        var replugged = false
        // Bright, then the monitor is switched off, the room goes dark, and it comes back.
        try daemon { time in
            if time >= 40, !unplugged {
                unplugged = true
                bus.unplug(Self.display)
                bus.unplug(Self.edid)
            }
            if time >= 90, !replugged {
                replugged = true
                bus.replug(Self.display)
                bus.replug(Self.edid)
            }
            return time < 50 ? 3000 : 5
        }.run(until: 130)
        let faults = log.lines.filter { $0.contains("ddc:1 (0x37): no acknowledge") }
        let recoveries = log.lines.filter { $0.contains("ddc:1 (0x37): recovered") }
        #expect(faults.count == 1)
        #expect(recoveries.count == 1)
        // The theme went on without the monitor.
        #expect(
            sink.events.contains { $0.kind == .change && $0.state == .invert && $0.time > 50 && $0.time < 90 }
        )
        // Back, the monitor is given the latest brightness, and nothing was written while away.
        let dim = BrightnessConfiguration.indoorKiosk.percent(logLux: log10(5), state: .invert)
        #expect(shown == dim)
        #expect(!monitor.setRequests.contains { $0.time > 40 && $0.time < 90 })
        #expect(monitor.protocolViolations.isEmpty)
    }

    @Test func aBusThatIsNotThereAtStartStopsTheDaemonWithTheI2CHint() throws {
        var settings = BacklightSettings()
        settings.device = .ddc(.number(9))
        let devices = MachineDevices(
            clock: clock, logger: Logger(write: { _ in }),
            openDDC: { _ throws(I2CError) in throw I2CError(.busMissing, bus: "/dev/i2c-9") })
        #expect {
            try devices.backlight(settings.device)
        } throws: { error in
            guard case .bus(let cause)? = error as? OutputError else { return false }
            return cause.kind == .busMissing && "\(error)".contains("/dev/i2c-9")
        }
    }
}
