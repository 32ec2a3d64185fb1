import AmbienceSystem
import CGPIODShim

#if canImport(Glibc)
    import Glibc
#endif

/// The GPIO chips through libgpiod, 1.6 or 2.x: whichever the build found (see CGPIODShim).
public final class Libgpiod: GPIODevices {
    public init() {}

    /// 1 or 2: the API generation compiled in.
    public static var apiGeneration: Int { Int(ambience_gpio_api_generation()) }
    /// The version of the library loaded, such as "1.6.3".
    public static var libraryVersion: String { String(cString: ambience_gpio_library_version()) }

    public func chipPaths() -> [String] {
        let names = (try? FileSystem.entries(of: "/dev")) ?? []
        let paths = names.filter { $0.hasPrefix("gpiochip") }.map { "/dev/" + $0 }
        // gpiochip10 after gpiochip9.
        return paths.sorted { ($0.count, $0) < ($1.count, $1) }
    }

    public func openChip(at path: String) throws(Errno) -> any GPIOChip {
        guard let chip = ambience_gpio_chip_open(path) else { throw Errno.current }
        return LibgpiodChip(path: path, chip: chip)
    }
}

final class LibgpiodChip: GPIOChip {
    let path: String
    private var chip: OpaquePointer?

    init(path: String, chip: OpaquePointer) {
        self.path = path
        self.chip = chip
    }

    deinit { close() }

    var name: String { chip.map { String(cString: ambience_gpio_chip_name($0)) } ?? "" }
    var label: String { chip.map { String(cString: ambience_gpio_chip_label($0)) } ?? "" }
    var lineCount: Int { chip.map { Int(ambience_gpio_chip_line_count($0)) } ?? 0 }

    func consumer(ofLine offset: UInt32) throws(Errno) -> String? {
        guard let chip else { throw Errno.badFileDescriptor }
        var buffer = [CChar](repeating: 0, count: 64)
        switch ambience_gpio_line_consumer(chip, offset, &buffer, buffer.count) {
        case 0: return nil
        case 1:
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        default: throw Errno.current
        }
    }

    func requestOutputs(_ lines: [GPIOOutputLine], consumer: String) throws(Errno) -> any GPIOLineRequest {
        guard let chip else { throw Errno.badFileDescriptor }
        let offsets = lines.map { $0.offset }
        let activeLow = lines.map { $0.activeLow }
        let values = lines.map { Int32($0.initiallyActive ? 1 : 0) }
        guard
            let request = ambience_gpio_request_outputs(
                chip, consumer, offsets, activeLow, values, lines.count)
        else { throw Errno.current }
        return LibgpiodLineRequest(request: request)
    }

    func close() {
        if let chip { ambience_gpio_chip_close(chip) }
        chip = nil
    }
}

final class LibgpiodLineRequest: GPIOLineRequest {
    private var request: OpaquePointer?

    init(request: OpaquePointer) { self.request = request }

    deinit { release() }

    func setActive(_ active: Bool, at index: Int) throws(Errno) {
        guard let request else { throw Errno.badFileDescriptor }
        if ambience_gpio_request_set_value(request, index, active ? 1 : 0) != 0 { throw Errno.current }
    }

    func release() {
        if let request { ambience_gpio_request_release(request) }
        request = nil
    }
}
