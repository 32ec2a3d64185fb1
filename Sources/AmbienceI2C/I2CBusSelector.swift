import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Which I2C bus a sensor is on: /dev/i2c-N by number, or by the name the kernel gives its
/// adapter (`/sys/class/i2c-dev/i2c-N/name`). USB adapters (MCP2221, CH341, FT232H) get
/// whatever number is free when they appear, so a name is what stays true across boots and
/// replugs.
public enum I2CBusSelector: Equatable, Sendable, CustomStringConvertible {
    case number(Int)
    /// The adapter's name exactly, or a shell pattern (`*`, `?`, `[…]`) matching it.
    case name(String)

    /// One adapter as sysfs lists it.
    public struct Adapter: Equatable, Sendable {
        public var number: Int
        public var name: String

        public init(number: Int, name: String) {
            self.number = number
            self.name = name
        }
    }

    public static let sysfsAdapters = "/sys/class/i2c-dev"

    public var description: String {
        switch self {
        case .number(let number): LinuxI2CBus.path(ofBus: number)
        case .name(let name): "the I2C adapter named '\(name)'"
        }
    }

    /// The bus number this selects among `adapters`: the lowest-numbered match for a name.
    public func busNumber(among adapters: [Adapter]) -> Int? {
        switch self {
        case .number(let number):
            return number
        case .name(let pattern):
            return adapters.filter { fnmatch(pattern, $0.name, 0) == 0 }.map { $0.number }.min()
        }
    }

    /// The adapters i2c-dev has a device node for, from sysfs (`directory` for tests).
    public static func adapters(in directory: String = sysfsAdapters) -> [Adapter] {
        let entries = (try? FileSystem.entries(of: directory)) ?? []
        return entries.compactMap { entry -> Adapter? in
            guard entry.hasPrefix("i2c-"), let number = Int(entry.dropFirst(4)),
                let name = try? FileSystem.firstLine(of: directory + "/" + entry + "/name")
            else { return nil }
            return Adapter(number: number, name: name)
        }.sorted { $0.number < $1.number }
    }

    /// The device node's path now, or `.busMissing` naming the adapters there are.
    public func resolve(in directory: String = sysfsAdapters) throws(I2CError) -> String {
        if case .number(let number) = self { return LinuxI2CBus.path(ofBus: number) }
        let adapters = Self.adapters(in: directory)
        guard let number = busNumber(among: adapters) else {
            let present = adapters.map { "i2c-\($0.number) '\($0.name)'" }.joined(separator: ", ")
            throw I2CError(
                .busMissing,
                bus: description + " (adapters now: " + (present.isEmpty ? "none" : present) + ")")
        }
        return LinuxI2CBus.path(ofBus: number)
    }
}

extension I2CBusSelector: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral number: Int) {
        self = .number(number)
    }

    public init(stringLiteral name: String) {
        self = .name(name)
    }
}
