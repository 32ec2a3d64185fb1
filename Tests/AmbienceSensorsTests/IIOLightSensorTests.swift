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
        #expect(try IIOChannel.find("tsl2561", in: sysfs.directory).read() == .success(123.5))
        #expect(try IIOChannel.find("bh1750", in: sysfs.directory).read() == .success(300 * 0.833333333))
        #expect(try IIOChannel.find("veml6030", in: sysfs.directory).read() == .success(4))
        let byPath = try IIOChannel.find(sysfs.directory + "/iio:device1", in: "/nonexistent")
        #expect(byPath.name == "bh1750")
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
