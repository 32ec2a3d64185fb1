import AmbienceCore
import AmbienceI2C
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Buses by adapter name, and a bus that vanishes and comes back under another number.
@Suite struct BusSelectorTests {
    /// A sysfs-like directory: i2c-N/name for each adapter.
    static func sysfs(_ adapters: [Int: String]) throws -> String {
        var template = Array("/tmp/ambience-sysfs-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        for (number, name) in adapters {
            try FileSystem.makeDirectory(directory + "/i2c-\(number)", mode: 0o755)
            let file = try FileDescriptor.open(
                directory + "/i2c-\(number)/name", O_WRONLY | O_CREAT, mode: 0o644)
            try file.writeAll(name + "\n")
            file.close()
        }
        return directory
    }

    @Test func findsAnAdapterByNameOrPatternWhateverItsNumber() throws {
        let directory = try Self.sysfs([
            1: "bcm2835 (i2c@7e804000)", 11: "CH341 I2C USB bus 001 device 007",
            4: "CH341 I2C USB bus 001 device 005",
        ])
        #expect(
            I2CBusSelector.adapters(in: directory).map(\.number) == [1, 4, 11])
        #expect(try I2CBusSelector.name("bcm2835 (i2c@7e804000)").resolve(in: directory) == "/dev/i2c-1")
        // Two matches: the lowest number, so the choice does not depend on directory order.
        #expect(try I2CBusSelector.name("CH341 I2C USB*").resolve(in: directory) == "/dev/i2c-4")
        #expect(try I2CBusSelector.number(9).resolve(in: directory) == "/dev/i2c-9")
    }

    @Test func aMissingAdapterIsAMissingBusThatNamesTheOnesThere() throws {
        let directory = try Self.sysfs([1: "bcm2835 (i2c@7e804000)"])
        do {
            _ = try I2CBusSelector.name("MCP2221 usb-i2c bridge").resolve(in: directory)
            Issue.record("resolved an adapter that is not there")
        } catch {
            #expect(error.kind == .busMissing)
            #expect(error.bus.contains("'MCP2221 usb-i2c bridge'"))
            #expect(error.bus.contains("i2c-1 'bcm2835 (i2c@7e804000)'"))
        }
    }
}

@Suite struct BusReopeningTests {
    /// Adapters that come and go: `open` hands out the bus plugged in now, or fails as a
    /// vanished /dev/i2c-N does.
    final class Adapters {
        let clock = ManualClock()
        var plugged: MockI2CBus?
        var opens = 0

        func plugIn(lux: Double) -> MockI2CBus {
            let bus = MockI2CBus(name: "/dev/i2c-\(10 + opens)", clock: clock)
            bus.attach(BH1750Emulator { _ in lux }, at: 0x23)
            plugged = bus
            return bus
        }

        func open(_ selector: I2CBusSelector) throws(I2CError) -> any I2CBus {
            opens += 1
            guard let plugged else { throw I2CError(.busMissing, bus: selector.description) }
            return plugged
        }
    }

    @Test func aVanishedBusIsAFaultAndTheBusThatComesBackIsSetUpAgain() throws {
        let adapters = Adapters()
        let first = adapters.plugIn(lux: 300)
        let bus = try ReopeningI2CBus("CH341*") { selector throws(I2CError) in try adapters.open(selector) }
        let sensor = BH1750(bus: bus, address: 0x23, clock: adapters.clock)
        let before = try sensor.read(waitingOn: adapters.clock)
        #expect(abs(before.lux - 300) < 6)
        #expect(adapters.opens == 1)

        // Unplugged: the old descriptor fails, and there is no bus to open any more.
        first.unplug(0x23)
        adapters.plugged = nil
        adapters.clock.advance(by: 1)
        #expect(throws: SensorError.self) { try sensor.read(waitingOn: adapters.clock) }
        #expect(!bus.isOpen)
        let opensWhileGone = adapters.opens

        // Back under another number, in its power-on state: opened again and set up again.
        adapters.clock.advance(by: 10)
        let second = adapters.plugIn(lux: 2000)
        let after = try sensor.read(waitingOn: adapters.clock)
        #expect(abs(after.lux - 2000) < 40)
        #expect(bus.isOpen)
        #expect(bus.name == second.name && second.name != first.name)
        #expect(adapters.opens == opensWhileGone + 1)
        // The chip on the new bus heard the whole set-up, power on first.
        #expect(second.writes.first?.bytes == [0x01])
    }

    @Test func aBusThatWorksIsOpenedOnce() throws {
        let adapters = Adapters()
        _ = adapters.plugIn(lux: 50)
        let bus = try ReopeningI2CBus(3) { selector throws(I2CError) in try adapters.open(selector) }
        let sensor = BH1750(bus: bus, address: 0x23, clock: adapters.clock)
        for _ in 0..<20 {
            _ = try sensor.read(waitingOn: adapters.clock)
            adapters.clock.advance(by: 0.1)
        }
        #expect(adapters.opens == 1)
    }

    @Test func aBusMissingAtStartIsReportedAtOnce() {
        let adapters = Adapters()
        do {
            _ = try ReopeningI2CBus("MCP2221*") { selector throws(I2CError) in try adapters.open(selector) }
            Issue.record("opened a bus that is not there")
        } catch {
            #expect(error.kind == .busMissing)
        }
    }
}
