import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The touchscreens of the machine, for waking a sleeping display with a touch that nothing
/// else sees (docs/display-sleep.md, "Touch").
///
/// A touchscreen is an evdev device the way udev's input_id calls one: INPUT_PROP_DIRECT, a
/// BTN_TOUCH key and an absolute position; found in /sys/class/input without udev's database,
/// so that the rig and a minimal system find the same ones. While the display sleeps every one
/// is grabbed (EVIOCGRAB): the compositor, and so the page, receives none of its events. The
/// grab is let go once the display is awake and every finger has lifted, so the touch that woke
/// it presses nothing and the next one reaches the page as usual. Touches while awake are read
/// too: someone using the screen is someone there, and the darkness counts again.
public final class TouchScreens {
    /// EVIOCGRAB, _IOW('E', 0x90, int): the same number on every architecture Linux has.
    static let grabRequest: UInt = 0x4004_4590
    /// BTN_TOUCH, ABS_X, ABS_MT_POSITION_X and INPUT_PROP_DIRECT's bits.
    static let positionX = 0x00
    static let multiTouchPositionX = 0x35
    static let directProperty = 0x01

    struct Screen {
        let path: String
        let descriptor: FileDescriptor
        var contacts = TouchContacts()
    }

    private let classDirectory: String
    private let deviceDirectory: String
    private let log: OutputLog
    private var screens: [Screen] = []
    /// Devices that could not be opened, each said once.
    private var refused: [String] = []
    public private(set) var isGrabbed = false

    /// `classDirectory` is /sys/class/input and `deviceDirectory` /dev/input but in tests.
    public init(
        classDirectory: String = "/sys/class/input", deviceDirectory: String = "/dev/input",
        log: @escaping OutputLog
    ) {
        self.classDirectory = classDirectory
        self.deviceDirectory = deviceDirectory
        self.log = log
        refresh()
    }

    /// The descriptors to watch.
    public var descriptors: [FileDescriptor] { screens.map { $0.descriptor } }

    /// The device nodes open now.
    public var paths: [String] { screens.map { $0.path } }

    /// Whether a finger is down on any of them.
    public var isTouching: Bool { screens.contains { $0.contacts.isTouching } }

    /// Opens touchscreens that appeared since (a USB one plugged in); done at start and before
    /// every grab.
    public func refresh() {
        let names: [String]
        do {
            names = try FileSystem.entries(of: classDirectory).filter { $0.hasPrefix("event") }.sorted()
        } catch {
            return
        }
        for name in names where Self.isTouchScreen(classDirectory + "/" + name + "/device") {
            let path = deviceDirectory + "/" + name
            guard !screens.contains(where: { $0.path == path }), !refused.contains(path) else { continue }
            do {
                let descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                screens.append(Screen(path: path, descriptor: descriptor))
                if isGrabbed { grab(descriptor) }
            } catch {
                refused.append(path)
                log(
                    "touchscreen \(path): \(error); a touch will not wake the display (the package's udev rule"
                        + " gives the ambience user touchscreens: reinstall it, or see docs/display-sleep.md)"
                )
            }
        }
    }

    /// Grabs every touchscreen, looked for again first (the display went to sleep). Called on
    /// every pass of the loop while the display sleeps: only the first does anything, so the
    /// night costs no sysfs scans.
    public func grabAll() {
        guard !isGrabbed else { return }
        refresh()
        isGrabbed = true
        for screen in screens { grab(screen.descriptor) }
    }

    /// Lets every touchscreen go (the display is awake and no finger is down).
    public func releaseAll() {
        guard isGrabbed else { return }
        isGrabbed = false
        for screen in screens { _ = ioctl(screen.descriptor.rawValue, Self.grabRequest, 0) }
    }

    /// Reads what `descriptor` has; true when a touch began. A device that went away is closed.
    public func read(_ descriptor: FileDescriptor) -> Bool {
        guard let index = screens.firstIndex(where: { $0.descriptor == descriptor }) else { return false }
        let size = 2 * MemoryLayout<Int>.size + 8  // struct input_event: the time, type, code, value
        var began = false
        var buffer = [UInt8](repeating: 0, count: size * 64)
        while true {
            let result = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try descriptor.read(into: bytes) }
            }
            let count: Int
            switch result {
            case .success(let read):
                count = read
            case .failure(.wouldBlock):
                return began
            case .failure(let error):
                log("touchscreen \(screens[index].path): \(error); closed")
                descriptor.close()
                screens.remove(at: index)
                return began
            }
            guard count > 0 else { break }
            var offset = 0
            while offset + size <= count {
                let base = offset + 2 * MemoryLayout<Int>.size
                let type = UInt16(buffer[base]) | UInt16(buffer[base + 1]) << 8
                let code = UInt16(buffer[base + 2]) | UInt16(buffer[base + 3]) << 8
                let value =
                    UInt32(buffer[base + 4]) | UInt32(buffer[base + 5]) << 8 | UInt32(buffer[base + 6]) << 16
                    | UInt32(buffer[base + 7]) << 24
                if screens[index].contacts.take(type: type, code: code, value: Int32(bitPattern: value)) {
                    began = true
                }
                offset += size
            }
        }
        return began
    }

    public func close() {
        releaseAll()
        for screen in screens { screen.descriptor.close() }
        screens = []
    }

    private func grab(_ descriptor: FileDescriptor) {
        if ioctl(descriptor.rawValue, Self.grabRequest, 1) != 0 {
            let error = Errno.current
            let why = error == .resourceBusy ? "another program holds it" : "\(error)"
            let path = screens.first { $0.descriptor == descriptor }?.path ?? "?"
            log(
                "touchscreen \(path): not grabbed (\(why)): a touch that wakes the display reaches the page too"
            )
        }
    }

    /// udev's input_id test, on the device's sysfs directory: direct (a screen, not a pad), with
    /// BTN_TOUCH and an absolute position.
    static func isTouchScreen(_ device: String) -> Bool {
        guard let properties = try? FileSystem.firstLine(of: device + "/properties"),
            let keys = try? FileSystem.firstLine(of: device + "/capabilities/key"),
            let axes = try? FileSystem.firstLine(of: device + "/capabilities/abs")
        else { return false }
        return hasBit(Self.directProperty, in: properties) && hasBit(Int(TouchContacts.touchButton), in: keys)
            && (hasBit(positionX, in: axes) || hasBit(multiTouchPositionX, in: axes))
    }

    /// Whether bit `bit` is set in a sysfs bitmap: hexadecimal words of a `long`, the most
    /// significant first, separated by spaces.
    static func hasBit(_ bit: Int, in bitmap: String) -> Bool {
        let words = bitmap.split(separator: " ").reversed().map { UInt64($0, radix: 16) }
        let wordBits = 8 * MemoryLayout<Int>.size
        let index = bit / wordBits
        guard index < words.count, let word = words[index] else { return false }
        return word & (1 << UInt64(bit % wordBits)) != 0
    }
}
