import AmbienceCore
import AmbienceSystem

/// The counts of a kernel colour sensor whose chip we know: the kernel's `tcs3472` driver gives
/// `in_intensity_{clear,red,green,blue}_raw` and no illuminance, with the gain it runs at
/// (`in_intensity_calibscale`: 1, 4, 16 or 60) and its integration time in seconds
/// (`in_intensity_integration_time`). The counts are the TCS34725's, so the lux and colour
/// come as the i2c-dev driver's do (`TCS34725.reading`).
///
/// The driver keeps what the chip powered up with, ATIME 0xFF: 2.4 ms, a few counts in a
/// room. The package's udev rule sets 101 ms and 4x when the driver binds
/// (docs/sensors.md); the daemon, unprivileged, only reads them.
public struct IIOColourChannels: Equatable, Sendable {
    /// The drivers whose counts are a chip's we have the formulas of.
    public static let drivers = ["tcs3472"]

    public var clear: String
    public var red: String
    public var green: String
    public var blue: String
    public var gain: String
    public var integrationTime: String

    /// The attributes in the device's directory, when its driver is one of `drivers` and they
    /// are all there.
    static func at(_ deviceDirectory: String, name: String) -> IIOColourChannels? {
        guard drivers.contains(name) else { return nil }
        func path(_ attribute: String) -> String? {
            let path = deviceDirectory + "/in_intensity_" + attribute
            return FileSystem.exists(path) ? path : nil
        }
        guard let clear = path("clear_raw"), let red = path("red_raw"), let green = path("green_raw"),
            let blue = path("blue_raw"), let gain = path("calibscale"),
            let integrationTime = path("integration_time")
        else { return nil }
        return IIOColourChannels(
            clear: clear, red: red, green: green, blue: blue, gain: gain, integrationTime: integrationTime)
    }

    /// One reading: each raw read waits, in the driver, for a finished conversion.
    func read() throws(IIOError) -> Reading {
        let gain = try IIOChannel.number(gain)
        let seconds = try IIOChannel.number(integrationTime)
        let cycles = Int((seconds / 0.0024).rounded())
        guard [1.0, 4, 16, 60].contains(gain), (1...256).contains(cycles) else {
            throw IIOError(
                "\(self.gain) and \(integrationTime) read \(gain) and \(seconds): not a TCS3472x's")
        }
        let channels = TCS34725.Channels(
            clear: try IIOChannel.number(clear), red: try IIOChannel.number(red),
            green: try IIOChannel.number(green), blue: try IIOChannel.number(blue))
        let milliseconds = (Double(cycles) * 24).rounded() / 10
        return TCS34725.reading(
            channels, gain: gain, cycles: cycles,
            settings: "kernel driver, gain \(Int(gain))x, \(milliseconds) ms")
    }
}
