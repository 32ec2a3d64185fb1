import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceOutputs
import AmbienceSimulation
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct BacklightProbeTests {
    @Test func findsTheMonitorByItsEDIDAndReadsItsBrightness() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let emulator = DDCMonitorEmulator.attach(to: bus, maximum: 255, brightness: 77)
        let monitor = try #require(BacklightProbe.monitor(on: bus, clock: clock))
        #expect(monitor.edid.monitorName == "Ambience DDC")
        #expect(monitor.edid.manufacturer == "AMB")
        #expect(try monitor.brightness.get() == DDCCI.FeatureValue(code: 0x10, maximum: 255, current: 77))
        #expect(monitor.power == .on)
        #expect(emulator.protocolViolations.isEmpty)
        // Asleep (its button), it says so; the probe does not wake it.
        emulator.powerMode = 2
        #expect(BacklightProbe.monitor(on: bus, clock: clock)?.power == .off)
        #expect(emulator.powerMode == 2)
        #expect(emulator.powerSets.isEmpty)
    }

    @Test func aMonitorWithoutDDCCISaysSo() throws {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        DDCMonitorEmulator.attach(to: bus)
        bus.unplug(DDCMonitorRig.display)
        let monitor = try #require(BacklightProbe.monitor(on: bus, clock: clock))
        guard case .failure(let failure) = monitor.brightness else {
            Issue.record("a brightness from an unplugged 0x37")
            return
        }
        #expect(failure.description.contains("has DDC/CI switched off"))
    }

    @Test func aBusWithoutAnEDIDIsNoDisplaysAnd0x37IsLeftAlone() {
        let clock = ManualClock()
        let bus = MockI2CBus(clock: clock)
        let emulator = DDCMonitorEmulator()
        bus.attach(emulator, at: DDCMonitorRig.display)
        #expect(BacklightProbe.monitor(on: bus, clock: clock) == nil)
        #expect(emulator.getRequestCount == 0)
    }

    @Test func listsTheSysfsBacklights() throws {
        let directory = TemporaryDirectory()
        for (name, files) in [
            (
                "rpi_backlight",
                [
                    "max_brightness": "255\n", "brightness": "200\n", "actual_brightness": "180\n",
                    "bl_power": "4\n",
                ]
            ),
            ("acpi_video0", ["max_brightness": "15\n", "brightness": "7\n"]),
        ] {
            try FileSystem.makeDirectory(directory.file(name), mode: 0o755)
            for (file, text) in files {
                let descriptor = try FileDescriptor.open(
                    directory.file(name + "/" + file), O_WRONLY | O_CREAT)
                try descriptor.writeAll(text)
                descriptor.close()
            }
        }
        let entries = BacklightProbe.sysfsEntries(in: directory.path)
        #expect(entries.map(\.name) == ["acpi_video0", "rpi_backlight"])
        #expect(entries[0].current == 7 && entries[0].maximum == 15)
        #expect(entries[1].current == 180 && entries[1].maximum == 255)
        #expect(entries[0].power == nil && entries[1].power == 4)
        #expect(BacklightProbe.sysfsEntries(in: directory.file("missing")).isEmpty)
    }
}
