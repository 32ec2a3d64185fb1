import AmbienceCore
import AmbienceSensors
import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Kernel-driven light sensors through IIO, against a sysfs-like directory of attribute files.
@Suite struct IIOLightSensorTests {
    final class Sysfs {
        let directory: String

        init() {
            var template = Array("/tmp/ambience-iio-XXXXXX".utf8CString)
            directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        }

        deinit { remove(directory) }

        /// A device directory with these attributes, as a driver binding makes it.
        func bind(_ index: Int, name: String, _ attributes: [String: String]) throws {
            let device = directory + "/iio:device\(index)"
            try FileSystem.makeDirectory(device, mode: 0o755)
            try set(device + "/name", name)
            for (attribute, value) in attributes { try set(device + "/" + attribute, value) }
        }

        func set(_ path: String, _ value: String) throws {
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
            defer { file.close() }
            try file.writeAll(value + "\n")
        }

        /// What unbinding the driver does: the device directory goes.
        func unbind(_ index: Int) { remove(directory + "/iio:device\(index)") }

        private func remove(_ path: String) {
            for entry in (try? FileSystem.entries(of: path)) ?? [] {
                let child = path + "/" + entry
                if unlink(child) != 0 { remove(child) }
            }
            rmdir(path)
        }
    }

    @Test func readsProcessedLuxOrRawTimesScalePlusOffset() throws {
        let sysfs = Sysfs()
        try sysfs.bind(0, name: "tsl2561", ["in_illuminance0_input": "123.5"])
        try sysfs.bind(
            1, name: "bh1750", ["in_illuminance_raw": "300", "in_illuminance_scale": "0.833333333"])
        try sysfs.bind(
            2, name: "veml6030",
            [
                "in_illuminance_raw": "10", "in_illuminance_offset": "-2",
                "in_illuminance_scale": "0.5",
            ])
        try sysfs.bind(3, name: "mpu6050", ["in_accel_x_raw": "1"])
        #expect(IIOChannel.all(in: sysfs.directory).map(\.name) == ["tsl2561", "bh1750", "veml6030"])
        #expect(try IIOChannel.find("tsl2561", in: sysfs.directory).read().map(\.lux) == .success(123.5))
        #expect(
            try IIOChannel.find("bh1750", in: sysfs.directory).read().map(\.lux)
                == .success(300 * 0.833333333))
        #expect(try IIOChannel.find("veml6030", in: sysfs.directory).read().map(\.lux) == .success(4))
        let byPath = try IIOChannel.find(sysfs.directory + "/iio:device1", in: "/nonexistent")
        #expect(byPath.name == "bh1750")
    }

    /// The kernel's tcs3472 driver gives four intensity channels and no illuminance: they are
    /// read as the i2c-dev driver reads the same counts (`TCS34725WireTests`).
    @Test func aTCS3472sChannelsGiveLuxAndColourAsTheI2CDriversDo() throws {
        let sysfs = Sysfs()
        let counts = [
            "in_intensity_clear_raw": "1000", "in_intensity_red_raw": "400", "in_intensity_green_raw": "350",
            "in_intensity_blue_raw": "300",
        ]
        try sysfs.bind(
            0, name: "tcs3472",
            counts.merging(["in_intensity_calibscale": "4", "in_intensity_integration_time": "0.100800"]) {
                $1
            })
        // An apds9960 has such channels too, but no formula of ours: not listed as a light sensor.
        try sysfs.bind(1, name: "apds9960", counts.merging(["in_intensity_clear_calibscale": "1"]) { $1 })
        #expect(IIOChannel.all(in: sysfs.directory).map(\.name) == ["tcs3472"])

        let reading = try IIOChannel.find("tcs3472", in: sysfs.directory).read().get()
        let same = TCS34725.reading(
            .init(clear: 1000, red: 400, green: 350, blue: 300), gain: 4, cycles: 42, settings: "")
        #expect(reading.lux == same.lux)
        #expect(reading.colour == same.colour && reading.colour != nil)
        #expect(reading.settings == "kernel driver, gain 4x, 100.8 ms")

        // 2.4 ms, the chip's power-on ATIME, saturates from 768 counts: lux as a bound, no colour.
        try sysfs.set(sysfs.directory + "/iio:device0/in_intensity_integration_time", "0.002400")
        let saturated = try IIOChannel.find("tcs3472", in: sysfs.directory).read().get()
        #expect(saturated.isSaturated && saturated.colour == nil)
        try sysfs.set(sysfs.directory + "/iio:device0/in_intensity_calibscale", "3")
        #expect(throws: IIOError.self) { try IIOChannel.find("tcs3472", in: sysfs.directory).read().get() }
    }

    @Test func aMissingDeviceNamesTheOnesThere() throws {
        let sysfs = Sysfs()
        try sysfs.bind(0, name: "opt3001", ["in_illuminance_input": "5"])
        #expect(throws: IIOError.self) { try IIOChannel.find("bh1750", in: sysfs.directory) }
        do {
            _ = try IIOChannel.find("bh1750", in: sysfs.directory)
        } catch {
            #expect(error.message.contains("no IIO light sensor named 'bh1750'"))
            #expect(error.message.contains("'opt3001'"))
        }
        try sysfs.set(sysfs.directory + "/iio:device0/in_illuminance_input", "overflow")
        #expect(
            try IIOChannel.find("opt3001", in: sysfs.directory).read()
                == .failure(
                    IIOError(
                        "\(sysfs.directory)/iio:device0/in_illuminance_input reads 'overflow', not a number"))
        )
    }

    @Test func anUnboundDriverIsAFaultAndBindingItAgainRecovers() throws {
        let sysfs = Sysfs()
        let clock = ManualClock()
        try sysfs.bind(0, name: "bh1750", ["in_illuminance_raw": "120", "in_illuminance_scale": "0.5"])
        let sensor = IIOLightSensor(
            device: "bh1750", directory: sysfs.directory, clock: clock, execution: .inline)
        #expect(try sensor.read(waitingOn: clock).lux == 60)

        sysfs.unbind(0)
        clock.advance(by: 0.1)
        #expect(throws: SensorError.self) { try sensor.read(waitingOn: clock) }
        clock.advance(by: 0.1)
        // Backing off: no look at sysfs before the cooldown ends.
        try sysfs.bind(4, name: "bh1750", ["in_illuminance_raw": "800", "in_illuminance_scale": "0.5"])
        #expect(throws: SensorError.self) { try sensor.measure() }
        clock.advance(by: 10)
        // Bound again as another iio:deviceN: found by its name.
        #expect(try sensor.read(waitingOn: clock).lux == 400)
    }

    @Test func aReadOnItsThreadLeavesTheCallerFree() throws {
        let sysfs = Sysfs()
        let clock = ManualClock()
        try sysfs.bind(0, name: "opt3001", ["in_illuminance_input": "42.25"])
        let sensor = IIOLightSensor(device: "opt3001", directory: sysfs.directory, clock: clock)
        var progress = try sensor.measure()
        guard case .pending = progress else {
            Issue.record("the first measure read on the caller's thread: \(progress)")
            return
        }
        // The thread's read of a regular file is quick; give it up to 10 s before failing.
        for _ in 0..<10_000 {
            progress = try sensor.measure()
            if case .reading = progress { break }
            usleep(1000)
        }
        #expect(
            progress
                == .reading(Reading(lux: 42.25, settings: "kernel driver, iio:device0 in_illuminance_input")))
    }
}
