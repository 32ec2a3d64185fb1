import AmbienceOutputs
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// GPIO chips in memory, for tests and for a daemon without hardware: lines keep their
/// physical level, other consumers can hold lines, and faults can be injected.
public final class FakeGPIO: GPIODevices {
    public final class Chip {
        public let name: String
        public let label: String
        public let lineCount: Int
        /// Lines held by someone else: offset → consumer name.
        public var heldByOthers: [UInt32: String] = [:]
        /// The physical level of each line driven by a request (true is high).
        public fileprivate(set) var levels: [UInt32: Bool] = [:]
        /// Lines requested now, and by whom.
        public fileprivate(set) var requested: [UInt32: String] = [:]
        /// Makes every set of a value fail with this error, while set.
        public var failingSets: Errno?
        /// Every level set through a request, in order (the initial levels of a request excluded).
        public fileprivate(set) var history: [LevelChange] = []

        public init(name: String, label: String, lineCount: Int) {
            self.name = name
            self.label = label
            self.lineCount = lineCount
        }
    }

    public struct LevelChange: Equatable, Sendable {
        public var offset: UInt32
        public var high: Bool

        public init(offset: UInt32, high: Bool) {
            self.offset = offset
            self.high = high
        }
    }

    public var chips: [Chip]
    /// Opening any chip fails with this error, while set (EACCES: a missing udev rule).
    public var openError: Errno?
    public private(set) var openChipCount = 0

    public init(chips: [Chip]) { self.chips = chips }

    public func chipPaths() -> [String] { chips.map { "/dev/" + $0.name } }

    public func openChip(at path: String) throws(Errno) -> any GPIOChip {
        if let openError { throw openError }
        guard let chip = chips.first(where: { "/dev/" + $0.name == path }) else {
            throw Errno.noSuchFileOrDirectory
        }
        openChipCount += 1
        return FakeChipHandle(devices: self, chip: chip, path: path)
    }

    fileprivate func closed() { openChipCount -= 1 }
}

private final class FakeChipHandle: GPIOChip {
    let devices: FakeGPIO
    let chip: FakeGPIO.Chip
    let path: String
    var isOpen = true

    init(devices: FakeGPIO, chip: FakeGPIO.Chip, path: String) {
        self.devices = devices
        self.chip = chip
        self.path = path
    }

    var name: String { chip.name }
    var label: String { chip.label }
    var lineCount: Int { chip.lineCount }

    func consumer(ofLine offset: UInt32) throws(Errno) -> String? {
        guard Int(offset) < chip.lineCount else { throw Errno.invalidArgument }
        return chip.heldByOthers[offset] ?? chip.requested[offset]
    }

    func requestOutputs(_ lines: [GPIOOutputLine], consumer: String) throws(Errno) -> any GPIOLineRequest {
        for line in lines {
            guard Int(line.offset) < chip.lineCount else { throw Errno.invalidArgument }
            if chip.heldByOthers[line.offset] != nil || chip.requested[line.offset] != nil {
                throw Errno.resourceBusy
            }
        }
        for line in lines {
            chip.requested[line.offset] = consumer
            chip.levels[line.offset] = line.initiallyActive != line.activeLow
        }
        return FakeLineRequest(chip: chip, lines: lines)
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        devices.closed()
    }
}

private final class FakeLineRequest: GPIOLineRequest {
    let chip: FakeGPIO.Chip
    var lines: [GPIOOutputLine]?

    init(chip: FakeGPIO.Chip, lines: [GPIOOutputLine]) {
        self.chip = chip
        self.lines = lines
    }

    func setActive(_ active: Bool, at index: Int) throws(Errno) {
        guard let lines, lines.indices.contains(index) else { throw Errno.badFileDescriptor }
        if let failure = chip.failingSets { throw failure }
        let level = active != lines[index].activeLow
        chip.levels[lines[index].offset] = level
        chip.history.append(FakeGPIO.LevelChange(offset: lines[index].offset, high: level))
    }

    func release() {
        for line in lines ?? [] { chip.requested[line.offset] = nil }
        lines = nil
    }
}
