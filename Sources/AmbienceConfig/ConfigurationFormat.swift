import TOML

/// How the configuration writes values, in messages and in the rendered file alike.
public enum ConfigurationFormat {
    /// A string, quoted and escaped as TOML writes it: `"auto"`.
    public static func string(_ value: String) -> String {
        TOMLWriter.string(value)
    }

    /// `0x23`, as addresses are written in datasheets and in the file.
    public static func hexadecimal(_ value: Int64) -> String {
        let digits = String(value.magnitude, radix: 16, uppercase: true)
        return (value < 0 ? "-" : "") + "0x" + String(repeating: "0", count: max(0, 2 - digits.count))
            + digits
    }

    /// `0o660`, as permission bits are written.
    public static func octal(_ value: Int64) -> String {
        (value < 0 ? "-" : "") + "0o" + String(value.magnitude, radix: 8)
    }

    /// A number of seconds or lux, without a needless ".0".
    public static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return TOMLWriter.float(value)
    }
}
