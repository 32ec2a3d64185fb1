import AmbienceCore
import AmbienceSensors
import AmbienceSystem

/// What `ambience probe` says about displays: the backlight class devices in sysfs, and a
/// DDC/CI monitor on an I2C bus. Unlike the daemon it may wait (it is a command run by hand): it
/// runs the daemon's `DDCMonitor` and sleeps out the deadlines it returns.
public enum BacklightProbe {
    public static let sysfsBacklights = "/sys/class/backlight"

    /// One `/sys/class/backlight/NAME`.
    public struct SysfsEntry: Equatable, Sendable {
        public var name: String
        public var maximum: Int?
        /// `actual_brightness` where the driver has it, else `brightness`.
        public var current: Int?
    }

    /// The backlight class devices, by name.
    public static func sysfsEntries(in directory: String = sysfsBacklights) -> [SysfsEntry] {
        let names = (try? FileSystem.entries(of: directory)) ?? []
        return names.sorted().map { name in
            let device = directory + "/" + name
            func number(_ attribute: String) -> Int? {
                (try? FileSystem.firstLine(of: device + "/" + attribute)).flatMap { Int($0) }
            }
            return SysfsEntry(
                name: name, maximum: number("max_brightness"),
                current: number("actual_brightness") ?? number("brightness"))
        }
    }

    /// A monitor found by its EDID, and what DDC/CI said when asked its brightness.
    public struct Monitor: Sendable {
        public var edid: EDID
        public var brightness: Result<DDCCI.FeatureValue, DDCFailure>
    }

    /// Why a monitor with an EDID gave no brightness, as the daemon's driver would log it.
    public struct DDCFailure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The monitor on `bus`: nil unless a valid EDID answers at 0x50 (a bus without one is no
    /// display's, and 0x37 is not written to there). Then one Get VCP Feature 0x10.
    public static func monitor(on bus: any I2CBus, clock: any Clock) -> Monitor? {
        let edidAddress = I2CAddress(rawValue: DDCCI.edidAddress)
        guard let bytes = try? bus.writeThenRead([0], readCount: EDID.length, address: edidAddress),
            let edid = try? EDID(decoding: bytes)
        else { return nil }
        return Monitor(edid: edid, brightness: brightness(on: bus, clock: clock))
    }

    /// One Get VCP Feature 0x10 through the daemon's own driver, its deadlines slept out.
    static func brightness(on bus: any I2CBus, clock: any Clock) -> Result<DDCCI.FeatureValue, DDCFailure> {
        let monitor = DDCMonitor(bus: bus, name: "probe", log: { _ in })
        defer { monitor.close() }
        var due = monitor.poll(now: clock.now)
        while monitor.lastReading == nil && monitor.fault == nil, let deadline = due {
            clock.sleep(until: deadline)
            due = monitor.poll(now: clock.now)
        }
        // The standard's rest after the reply, for whoever speaks to the monitor next.
        clock.sleep(seconds: DDCCI.messageDelay)
        if let reading = monitor.lastReading { return .success(reading) }
        return .failure(DDCFailure(description: monitor.fault ?? "no reply"))
    }
}
