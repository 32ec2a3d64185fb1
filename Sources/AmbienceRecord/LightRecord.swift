import AmbienceCore

/// The recent history of the light that the daemon keeps in memory: one fixed-size entry per
/// sample in a ring that is allocated once and never grows, so a daemon running for years holds
/// the same few hundred kilobytes. Times and raw lux are kept as the exact Doubles the engine saw,
/// so a record replays to the very events the daemon emitted; the filtered value is for people
/// (and plots) and is kept as a Float, the backlight's percent as a byte.
public struct LightRecord: Sendable {
    /// One sample as the record holds it, with what the engine showed after it.
    public struct Row: Equatable, Sendable {
        public var time: Double
        /// nil for a failed read.
        public var lux: Double?
        public var filtered: Double?
        /// The state shown after this sample; nil before the first.
        public var state: AmbienceState?
        public var isFaulted: Bool
        /// The state an override holds, if one does.
        public var override: AmbienceState?
        /// The backlight's percent after this sample; nil without `[backlight]`.
        public var brightness: Int?
        /// The light's colour, from a colour sensor whose channels were in range; not recorded.
        public var colour: Tristimulus?

        public init(
            time: Double, lux: Double?, filtered: Double?, state: AmbienceState?, isFaulted: Bool,
            override: AmbienceState?, brightness: Int? = nil
        ) {
            self.time = time
            self.lux = lux
            self.filtered = filtered
            self.state = state
            self.isFaulted = isFaulted
            self.override = override
            self.brightness = brightness
        }
    }

    /// The record's CSV header: the first two columns are what every trace has, the rest are
    /// read back by `TraceReader` as `Row.recorded`.
    public static let header = "seconds,lux,filtered,state,fault,override,brightness"
    /// The header of records written before `brightness` was a column, read as records still.
    public static let headerWithoutBrightness = "seconds,lux,filtered,state,fault,override"
    /// Time and raw lux (two Doubles), the filtered value (a Float), one byte of flags and one of
    /// brightness.
    public static let bytesPerRow = 8 + 8 + 4 + 1 + 1
    /// 30 minutes at the default 10 Hz (5 hours at 1 Hz): 396,000 bytes when full.
    public static let defaultCapacity = 18_000

    public let capacity: Int
    private var times: [Double] = []
    private var luxes: [Double] = []
    private var filtereds: [Float] = []
    private var flags: [UInt8] = []
    /// The percent, or `noBrightness`.
    private var brightnesses: [UInt8] = []
    private static let noBrightness: UInt8 = .max
    /// Where the oldest row is once the ring is full.
    private var oldest = 0

    /// Reserves the whole ring at once; its pages are touched only as rows arrive.
    public init(capacity: Int = LightRecord.defaultCapacity) {
        self.capacity = max(1, capacity)
        times.reserveCapacity(self.capacity)
        luxes.reserveCapacity(self.capacity)
        filtereds.reserveCapacity(self.capacity)
        flags.reserveCapacity(self.capacity)
        brightnesses.reserveCapacity(self.capacity)
    }

    public var count: Int { times.count }
    /// Rows appended since the ring was made, the dropped ones included: tells a writer which
    /// rows it has not seen yet.
    public private(set) var appended = 0

    /// Adds a row, dropping the oldest when the ring is full.
    public mutating func append(_ row: Row) {
        let packed = Self.pack(row)
        appended += 1
        if times.count < capacity {
            times.append(row.time)
            luxes.append(row.lux ?? .nan)
            filtereds.append(packed.filtered)
            flags.append(packed.flags)
            brightnesses.append(packed.brightness)
            return
        }
        times[oldest] = row.time
        luxes[oldest] = row.lux ?? .nan
        filtereds[oldest] = packed.filtered
        flags[oldest] = packed.flags
        brightnesses[oldest] = packed.brightness
        oldest = (oldest + 1) % capacity
    }

    /// The row `index` places after the oldest one.
    public func row(at index: Int) -> Row {
        let slot = (oldest + index) % times.count
        let lux = luxes[slot]
        let filtered = filtereds[slot]
        let bits = flags[slot]
        let brightness = brightnesses[slot]
        return Row(
            time: times[slot], lux: lux.isNaN ? nil : lux, filtered: filtered.isNaN ? nil : Double(filtered),
            state: Self.state(bits & 0b11), isFaulted: bits & 0b100 != 0,
            override: Self.state(bits >> 3 & 0b11),
            brightness: brightness == Self.noBrightness ? nil : Int(brightness))
    }

    /// Every row, oldest first.
    public var rows: [Row] { (0..<count).map(row(at:)) }

    /// One CSV line for a row, with its newline: the time and lux with the shortest digits that
    /// read back as the same Doubles, `nan` for a failed read, empty fields for what is absent.
    public static func line(_ row: Row) -> String {
        var line = EventLine.number(row.time) + ","
        line += row.lux.map { EventLine.number($0) } ?? "nan"
        line += "," + (row.filtered.map { Float($0).isFinite ? "\(Float($0))" : "" } ?? "")
        line += "," + (row.state?.rawValue ?? "")
        line += "," + (row.isFaulted ? "1" : "0")
        line += "," + (row.override?.rawValue ?? "")
        line += "," + (row.brightness.map { String($0) } ?? "") + "\n"
        return line
    }

    private static func pack(_ row: Row) -> (filtered: Float, flags: UInt8, brightness: UInt8) {
        let filtered = row.filtered.map { Float($0) } ?? .nan
        var bits = code(row.state)
        if row.isFaulted { bits |= 0b100 }
        bits |= code(row.override) << 3
        let brightness = row.brightness.map { UInt8(min(max($0, 0), 100)) } ?? noBrightness
        return (filtered, bits, brightness)
    }

    private static func code(_ state: AmbienceState?) -> UInt8 {
        state.map { UInt8($0.rank + 1) } ?? 0
    }

    private static func state(_ code: UInt8) -> AmbienceState? {
        code == 0 ? nil : AmbienceState.allCases.first { $0.rank == Int(code) - 1 }
    }
}
