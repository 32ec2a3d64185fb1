import AmbienceCore
import AmbienceSystem
import AmbienceTestSupport
import Testing

@testable import AmbienceOutputs

#if canImport(Glibc)
    import Glibc
#endif

struct TouchScreensTests {
    let log = LogLines()

    final class LogLines {
        var lines: [String] = []
        func log(_ line: String) { lines.append(line) }
    }

    @Test func bitsAreReadFromSysfsWordsLowestLast() {
        #expect(TouchScreens.hasBit(0x14A, in: "400 0 0 0 0 0"))  // BTN_TOUCH: word 5, bit 10
        #expect(!TouchScreens.hasBit(0x14A, in: "0 0 0 0 0 0"))
        #expect(TouchScreens.hasBit(0x35, in: "260800000000003"))
        #expect(TouchScreens.hasBit(0, in: "3"))
        #expect(!TouchScreens.hasBit(200, in: "3"))
    }

    @Test func onlyDirectDevicesWithATouchAndAPositionAreTouchScreens() throws {
        let devices = try InputDevices()
        try devices.addTouchScreen("event3")
        // A touchpad (not direct), and a keyboard.
        try devices.add("event1", properties: "0", keys: "400 0 0 0 0 0", axes: "3")
        try devices.add("event0", properties: "0", keys: "1000000 0 0 0 0 0 0", axes: "0")
        let screens = TouchScreens(
            classDirectory: devices.classDirectory, deviceDirectory: devices.deviceDirectory, log: log.log)
        defer { screens.close() }
        #expect(screens.paths == [devices.deviceDirectory + "/event3"])
    }

    @Test func aTouchBeginsOnceAndTheFingersAreFollowedUntilTheyLift() throws {
        let devices = try InputDevices()
        try devices.addTouchScreen("event3")
        let screens = TouchScreens(
            classDirectory: devices.classDirectory, deviceDirectory: devices.deviceDirectory, log: log.log)
        defer { screens.close() }
        let writer = try devices.writer("event3")
        defer { writer.close() }
        let descriptor = try #require(screens.descriptors.first)
        try writer.writeAll(inputEvent(1, 0x14A, 1) + inputEvent(3, 0, 400) + inputEvent(0, 0, 0))
        #expect(screens.read(descriptor))
        #expect(screens.isTouching)
        try writer.writeAll(inputEvent(3, 0, 410) + inputEvent(0, 0, 0))
        #expect(!screens.read(descriptor))
        try writer.writeAll(inputEvent(1, 0x14A, 0) + inputEvent(0, 0, 0))
        #expect(!screens.read(descriptor))
        #expect(!screens.isTouching)
    }

    @Test func touchscreensAreLookedForWhenTheGrabBeginsAndNotWhileItLasts() throws {
        let devices = try InputDevices()
        let screens = TouchScreens(
            classDirectory: devices.classDirectory, deviceDirectory: devices.deviceDirectory, log: log.log)
        defer { screens.close() }
        try devices.addTouchScreen("event4")  // plugged in while the display was awake
        screens.grabAll()
        #expect(screens.paths == [devices.deviceDirectory + "/event4"])
        try devices.addTouchScreen("event5")  // while it sleeps: found at the next sleep
        screens.grabAll()
        #expect(screens.paths.count == 1)
        screens.releaseAll()
        screens.grabAll()
        #expect(screens.paths.count == 2)
    }

    @Test func aDeviceThatCannotBeOpenedIsSaidOnce() throws {
        let devices = try InputDevices()
        try devices.add("event5", properties: "2", keys: "400 0 0 0 0 0", axes: "3")
        #expect(unlink(devices.deviceDirectory + "/event5") == 0)  // the node is missing
        let screens = TouchScreens(
            classDirectory: devices.classDirectory, deviceDirectory: devices.deviceDirectory, log: log.log)
        screens.refresh()
        screens.grabAll()
        #expect(screens.paths.isEmpty)
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("a touch will not wake the display") == true)
    }
}
