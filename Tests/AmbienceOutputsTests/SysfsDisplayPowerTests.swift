import AmbienceCore
import AmbienceSystem
import AmbienceTestSupport
import Testing

@testable import AmbienceOutputs

#if canImport(Glibc)
    import Glibc
#endif

/// `bl_power` in a temporary /sys/class/backlight of plain files.
struct SysfsDisplayPowerTests {
    let sysfs = TemporaryDirectory()
    let log = LogRecorder()

    func register(_ name: String, power: Int = 0) throws {
        try FileSystem.makeDirectory(sysfs.file(name), mode: 0o755)
        try put(String(power), at: name + "/bl_power")
    }

    func put(_ text: String, at name: String) throws {
        let file = try FileDescriptor.open(sysfs.file(name), O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { file.close() }
        try file.writeAll(text + "\n")
    }

    func blPower(_ name: String) throws -> String {
        try FileSystem.firstLine(of: sysfs.file(name + "/bl_power"))
    }

    @Test func offWritesFourOnWritesZeroAndThePowerIsReadBack() throws {
        try register("10-0045")
        let display = try SysfsDisplayPower(device: "auto", classDirectory: sysfs.path, log: log.log)
        #expect(display.name == "10-0045")
        #expect(display.power == nil)
        display.set(power: .off, now: 0)
        #expect(try blPower("10-0045") == "4")
        #expect(display.power == .off)
        display.set(power: .on, now: 1)
        #expect(try blPower("10-0045") == "0")
        #expect(display.power == .on)
    }

    @Test func aChangeMadeElsewhereIsSeenAtTheNextCheck() throws {
        try register("rpi_backlight")
        let display = try SysfsDisplayPower(device: "rpi_backlight", classDirectory: sysfs.path, log: log.log)
        display.set(power: .off, now: 0)
        try put("0", at: "rpi_backlight/bl_power")  // someone turned it on
        #expect(display.poll(now: 1) == SysfsDisplayPower.checkInterval)
        #expect(display.power == .off)
        _ = display.poll(now: SysfsDisplayPower.checkInterval)
        #expect(display.power == .on)
    }

    @Test func aDeviceThatGoesAwayIsOneFaultAndTheWishIsWrittenWhenItIsBack() throws {
        try register("rpi_backlight")
        let display = try SysfsDisplayPower(device: "rpi_backlight", classDirectory: sysfs.path, log: log.log)
        display.set(power: .on, now: 0)
        try FileSystem.removeFile(sysfs.file("rpi_backlight/bl_power"))
        #expect(rmdir(sysfs.file("rpi_backlight")) == 0)
        display.set(power: .off, now: 1)
        #expect(display.power == nil)
        for second in 2...4 { _ = display.poll(now: Double(second)) }
        #expect(log.messages.count == 1)
        #expect(log.messages.first?.contains("display rpi_backlight:") == true)
        try register("rpi_backlight")
        _ = display.poll(now: 5)
        #expect(try blPower("rpi_backlight") == "4")
        #expect(display.power == .off)
        #expect(log.messages.last == "display rpi_backlight: answering again")
    }

    @Test func aDeviceWithoutBlPowerStopsTheStartWithWhy() throws {
        try FileSystem.makeDirectory(sysfs.file("odd"), mode: 0o755)
        #expect(throws: OutputError.self) {
            try SysfsDisplayPower(device: "odd", classDirectory: sysfs.path, log: log.log)
        }
    }
}
