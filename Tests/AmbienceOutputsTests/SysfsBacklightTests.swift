import AmbienceSystem
import AmbienceTestSupport
import Testing

@testable import AmbienceOutputs

#if canImport(Glibc)
    import Glibc
#endif

/// /sys/class/backlight as a temporary directory of plain files.
struct SysfsBacklightTests {
    let sysfs = TemporaryDirectory()
    let log = LogRecorder()

    /// A device as a driver registers it: `max_brightness`, and `brightness` at `raw`.
    func register(_ name: String, maximum: Int = 255, raw: Int = 0) throws {
        try FileSystem.makeDirectory(sysfs.file(name), mode: 0o755)
        try put(String(maximum), at: name + "/max_brightness")
        try put(String(raw), at: name + "/brightness")
    }

    func put(_ text: String, at name: String) throws {
        let file = try FileDescriptor.open(sysfs.file(name), O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { file.close() }
        try file.writeAll(text + "\n")
    }

    func brightness(of name: String) throws -> String {
        try FileSystem.firstLine(of: sysfs.file(name + "/brightness"))
    }

    func open(_ device: String) throws -> SysfsBacklight {
        try SysfsBacklight(device: device, classDirectory: sysfs.path, log: log.log)
    }

    @Test func autoTakesTheOnlyDevice() throws {
        try register("rpi_backlight")
        let backlight = try open("auto")
        #expect(backlight.name == "rpi_backlight")
    }

    @Test func autoWithNoDeviceSaysWhereItLooked() throws {
        #expect {
            try open("auto")
        } throws: { error in
            (error as? OutputError)?.configurationError?.message.contains(
                "found no backlight in \(sysfs.path)")
                == true
        }
    }

    @Test func autoWithSeveralNamesThemAll() throws {
        try register("intel_backlight")
        try register("rpi_backlight")
        #expect {
            try open("auto")
        } throws: { error in
            (error as? OutputError)?.configurationError?.message
                == "\"auto\" found several backlights in \(sysfs.path): intel_backlight, rpi_backlight;"
                + " set device to one of them"
        }
    }

    @Test func aNameOrAPathPicksOne() throws {
        try register("intel_backlight")
        try register("rpi_backlight")
        #expect(try open("rpi_backlight").name == "rpi_backlight")
        #expect(try open(sysfs.file("intel_backlight")).name == "intel_backlight")
        #expect {
            try open("acpi_video0")
        } throws: { error in
            (error as? OutputError)?.configurationError?.message.contains("intel_backlight, rpi_backlight")
                == true
        }
    }

    @Test func percentMapsToRawAndZeroIsTheDimmestLitStep() {
        #expect(SysfsBacklight.raw(percent: 100, maximum: 255) == 255)
        #expect(SysfsBacklight.raw(percent: 50, maximum: 255) == 128)
        #expect(SysfsBacklight.raw(percent: 40, maximum: 31) == 12)
        #expect(SysfsBacklight.raw(percent: 0, maximum: 255) == 1)
        #expect(SysfsBacklight.raw(percent: 1, maximum: 31) == 1)
        #expect(SysfsBacklight.raw(percent: 150, maximum: 31) == 31)
    }

    @Test func writesOnlyWhenTheRawValueChanges() throws {
        try register("rpi_backlight", maximum: 31)
        let backlight = try open("auto")
        backlight.set(percent: 40, now: 0)
        #expect(try brightness(of: "rpi_backlight") == "12")
        // 41 % of 31 is 12.7: another raw value. 39 % is 12.09: the same, so nothing is written.
        try put("marker", at: "rpi_backlight/brightness")
        backlight.set(percent: 39, now: 0.1)
        #expect(try brightness(of: "rpi_backlight") == "marker")
        backlight.set(percent: 41, now: 0.2)
        #expect(try brightness(of: "rpi_backlight") == "13")
        #expect(backlight.poll(now: 0.3) == nil)
        #expect(log.messages.isEmpty)
    }

    @Test func aVanishedDeviceIsLoggedOnceRetriedEachSecondAndItsReturnOnce() throws {
        try register("rpi_backlight", maximum: 100)
        let backlight = try open("auto")
        backlight.set(percent: 50, now: 0)
        // The display is unplugged: its driver takes the device away.
        unlink(sysfs.file("rpi_backlight/brightness"))
        unlink(sysfs.file("rpi_backlight/max_brightness"))
        rmdir(sysfs.file("rpi_backlight"))
        backlight.set(percent: 60, now: 1)
        #expect(log.messages.count == 1)
        #expect(log.messages.first?.contains("retrying every second") == true)
        #expect(backlight.poll(now: 1.5) == 2)
        backlight.set(percent: 70, now: 1.6)  // kept for the retry
        for step in 0..<10 { _ = backlight.poll(now: 2 + Double(step)) }
        #expect(log.messages.count == 1)
        // Plugged in again, with another maximum: the latest wish is written, and said once.
        try register("rpi_backlight", maximum: 255, raw: 255)
        #expect(backlight.poll(now: 12) == nil)
        #expect(try brightness(of: "rpi_backlight") == "179")
        #expect(log.messages.count == 2, "\(log.messages)")
        #expect(log.messages.last == "backlight rpi_backlight: writing brightness again")
    }

    @Test func permissionDeniedNamesTheVideoGroup() throws {
        let refusal = SysfsBacklight.failure(
            "open", "/sys/class/backlight/rpi_backlight/brightness", .permissionDenied)
        #expect(
            refusal.description
                == "/sys/class/backlight/rpi_backlight/brightness: permission denied; it is for the video group,"
                + " which the udev rule (udev/99-ambience.rules) lets write it: add the daemon's user to it"
                + " (sudo usermod -aG video ambience) and restart the daemon")
        guard geteuid() != 0 else { return }  // root may write anything: the rest needs a user
        try register("rpi_backlight")
        chmod(sysfs.file("rpi_backlight/brightness"), 0o444)
        #expect {
            try open("auto")
        } throws: { error in
            "\(error)".contains("video group") && "\(error)".contains("usermod -aG video")
        }
    }
}
