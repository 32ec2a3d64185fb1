/// The kiosk's id in topics and Home Assistant when the configuration names none: stable across
/// reboots and renames, and unlike the hostname (often `raspberrypi` on every kiosk) unique.
public enum DeviceID {
    /// 12 hex digits of a 64-bit FNV-1a hash of /etc/machine-id's contents, salted with the
    /// program's name: stable, distinct per machine, and not the machine id itself, which
    /// machine-id(5) asks applications not to expose.
    public static func derived(fromMachineID machineID: String) -> String? {
        let trimmed = machineID.split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\t" }).first ?? ""
        guard trimmed.count >= 16 else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("ambience-mqtt:".utf8) + Array(trimmed.utf8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(12))
    }
}
