import AmbienceSystem

/// The GPIO character devices, in libgpiod 2's terms: chips, and requests of lines that are
/// released before their chip is closed. `Libgpiod` is the real one (either generation),
/// `FakeGPIO` (in AmbienceSimulation, beside the mock I2C bus) the one for tests.
public protocol GPIODevices: AnyObject {
    /// Paths of the GPIO chips present, such as /dev/gpiochip0, sorted.
    func chipPaths() -> [String]
    func openChip(at path: String) throws(Errno) -> any GPIOChip
}

public protocol GPIOChip: AnyObject {
    var path: String { get }
    /// The kernel's name, such as gpiochip0.
    var name: String { get }
    /// What the driver calls it, such as pinctrl-bcm2711 (a Pi 4) or pinctrl-rp1 (a Pi 5).
    var label: String { get }
    var lineCount: Int { get }
    /// Who holds the line: nil when it is free, "" when its holder gave no name.
    func consumer(ofLine offset: UInt32) throws(Errno) -> String?
    /// Requests the lines as outputs, all or none.
    func requestOutputs(_ lines: [GPIOOutputLine], consumer: String) throws(Errno) -> any GPIOLineRequest
    func close()
}

/// One line to request as an output.
public struct GPIOOutputLine: Equatable, Sendable {
    public var offset: UInt32
    public var activeLow: Bool
    /// The logical value the line starts with: true is active (lit).
    public var initiallyActive: Bool

    public init(offset: UInt32, activeLow: Bool, initiallyActive: Bool = false) {
        self.offset = offset
        self.activeLow = activeLow
        self.initiallyActive = initiallyActive
    }
}

public protocol GPIOLineRequest: AnyObject {
    /// Sets the logical value of the line at `index` in the order requested.
    func setActive(_ active: Bool, at index: Int) throws(Errno)
    func release()
}
