import AmbienceCore
import AmbienceSensors
import AmbienceSystem

/// What `ambience probe` says about displays: the backlight class devices in sysfs, and a
/// DDC/CI monitor on an I2C bus. Unlike the daemon's drivers it may wait (it is a command run
/// by hand), so it keeps DDC/CI's delays by sleeping on the clock it is given.
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

    /// Why a monitor with an EDID gave no brightness.
    public enum DDCFailure: Error, Sendable, CustomStringConvertible {
        case bus(I2CError)
        case reply(DDCCI.ReplyError)

        public var description: String {
            switch self {
            case .bus(let error) where error.kind == .notAcknowledged:
                "no DDC/CI at 0x37 (nothing acknowledges; is DDC/CI enabled in the monitor's menu?)"
            case .bus(let error): error.explanation
            case .reply(let error): "Get VCP 0x10: \(error)"
            }
        }
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

    static func brightness(on bus: any I2CBus, clock: any Clock) -> Result<DDCCI.FeatureValue, DDCFailure> {
        let address = I2CAddress(rawValue: DDCCI.displayAddress)
        do {
            try bus.write(DDCCI.getRequest(DDCCI.brightness), to: address)
            clock.sleep(seconds: DDCCI.replyDelay)
            let reply = try bus.read(count: DDCCI.getReplyLength, from: address)
            clock.sleep(seconds: DDCCI.messageDelay)
            do {
                return .success(try DDCCI.decodeGetReply(reply, code: DDCCI.brightness))
            } catch {
                return .failure(.reply(error))
            }
        } catch {
            return .failure(.bus(error))
        }
    }
}
