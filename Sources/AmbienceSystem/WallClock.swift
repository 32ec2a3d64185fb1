#if canImport(Glibc)
    import Glibc
#endif

/// CLOCK_REALTIME, for what people read (event times) and what must survive a restart (an
/// override's expiry). Everything that measures intervals uses the monotonic `Clock` instead.
public enum WallClock {
    /// Seconds since the Unix epoch.
    public static var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The minute of the local day (0 to 1439) at `seconds` since the epoch, in the time zone the
    /// system is set to (TZ, /etc/localtime): what "07:00" means to the people in the room.
    public static func minuteOfDay(_ seconds: Double) -> Int {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        localtime_r(&time, &parts)
        return Int(parts.tm_hour) * 60 + Int(parts.tm_min)
    }

    /// ISO 8601 UTC with milliseconds, such as "2026-11-29T21:00:00.123Z", rounded to the
    /// nearest millisecond (1795986000.123 is stored as …000.12299…).
    public static func iso8601(_ seconds: Double) -> String {
        let totalMilliseconds = Int64((seconds * 1000).rounded())
        let milliseconds = Int(totalMilliseconds - (totalMilliseconds / 1000) * 1000 + 1000) % 1000
        var time = time_t((totalMilliseconds - Int64(milliseconds)) / 1000)
        var parts = tm()
        gmtime_r(&time, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-"
            + padded(parts.tm_mday, 2) + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2)
            + ":" + padded(parts.tm_sec, 2) + "." + padded(Int32(milliseconds), 3) + "Z"
    }
}
