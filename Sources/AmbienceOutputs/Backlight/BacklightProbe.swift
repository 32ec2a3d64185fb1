import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceI2C
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
        /// `bl_power`: 0 on, 4 off; nil when the device has none.
        public var power: Int?
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
                current: number("actual_brightness") ?? number("brightness"), power: number("bl_power"))
        }
    }

    /// A monitor found by its EDID, and what DDC/CI said when asked its brightness.
    public struct Monitor: Sendable {
        public var edid: EDID
        public var brightness: Result<DDCCI.FeatureValue, DDCFailure>
        /// Its power mode (VCP 0xD6) as read back; nil when it has none, or did not say.
        public var power: DisplayPower?
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
        let monitor = DDCMonitor(bus: bus, name: "probe", log: { _ in })
        defer { monitor.close() }
        let brightness = brightness(of: monitor, clock: clock)
        guard case .success = brightness else { return Monitor(edid: edid, brightness: brightness) }
        return Monitor(edid: edid, brightness: brightness, power: power(of: monitor, clock: clock))
    }

    /// One Get VCP Feature 0x10 through the daemon's own driver, its deadlines slept out.
    static func brightness(of monitor: DDCMonitor, clock: any Clock) -> Result<DDCCI.FeatureValue, DDCFailure>
    {
        run(monitor, clock: clock) { monitor.lastReading != nil }
        if let reading = monitor.lastReading { return .success(reading) }
        return .failure(DDCFailure(description: monitor.fault ?? "no reply"))
    }

    /// One Get VCP Feature 0xD6 through the same driver; nil for a monitor without the feature.
    static func power(of monitor: DDCMonitor, clock: any Clock) -> DisplayPower? {
        monitor.askPower(now: clock.now)
        run(monitor, clock: clock) { monitor.power != nil }
        return monitor.power
    }

    /// Polls the driver, its deadlines slept out, until `done`, a fault, or nothing left to do;
    /// then the standard's rest after the last message, for whoever speaks to the monitor next.
    private static func run(_ monitor: DDCMonitor, clock: any Clock, until done: () -> Bool) {
        var due = monitor.poll(now: clock.now)
        while !done() && monitor.fault == nil, let deadline = due {
            clock.sleep(until: deadline)
            due = monitor.poll(now: clock.now)
        }
        clock.sleep(seconds: DDCCI.messageDelay)
    }
}
