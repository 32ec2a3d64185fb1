import AmbienceCore
import JSON

/// What the kiosk shows and why, as the daemon's event lines tell it: the state payload's source.
/// The override's end is kept on the monotonic clock (a Pi has no real-time clock, and its wall
/// clock may jump when NTP arrives), from the seconds left that each line carries.
public struct KioskStatus: Equatable, Sendable {
    public var state: AmbienceState?
    public var lux: Double?
    public var filtered: Double?
    public var override: AmbienceState?
    /// Monotonic seconds at which the override ends; nil when it holds until `auto`.
    public var overrideEnds: Double?
    public var fault = false
    /// The backlight's percent; nil when the kiosk has none (or its daemon predates the key).
    public var brightness: Int?
    /// The display awake or asleep, as its device says; nil when the kiosk has no `[display]`.
    public var display: DisplayPower?
    /// The room's colour temperature and the display's white; nil when the kiosk has no
    /// `[whitepoint]`.
    public var whitePoint: WhitePointNews?

    public init() {}

    /// Takes one event line (JSON; a `plain` pipe says too little); false when it is not one.
    /// `now` is the monotonic time it was read.
    public mutating func consume(_ line: String, now: Double) -> Bool {
        guard let event = try? EventLine.decode(line), event.format == .json, event.kind != nil else {
            return false
        }
        if let shown = event.state { state = shown }
        // `fault` lines carry no reading: the last one stays the best known.
        if let value = event.lux { lux = value }
        if let value = event.filtered { filtered = value }
        // Lines from a daemon older than these keys leave them as they were.
        if let held = event.override {
            override = held.state
            overrideEnds = override == nil ? nil : held.remaining.map { now + $0 }
        }
        if let value = event.fault { fault = value }
        brightness = event.brightness
        display = event.display
        whitePoint = event.hasWhitePoint ? WhitePointNews(room: event.cct, display: event.whitePoint) : nil
        return true
    }

    /// The retained state payload at monotonic `now`:
    /// `{"state":…,"lux":…,"filtered":…,"override":…,"override_remaining_s":…,"fault":…,"brightness":…}`,
    /// and `"display":"on"` or `"off"` when the kiosk has a `[display]`, and `"cct"` and
    /// `"whitepoint"` (kelvin, or null) last when it has a `[whitepoint]`.
    public func payload(now: Double) -> String {
        let remaining = overrideEnds.map { max(0, ($0 - now) * 10).rounded() / 10 }
        // Typed apart: Swift 6.0's type checker gives up on the whole list and its sum at once.
        var members: [(String, JSONValue)] = [
            ("state", state.map { .string($0.rawValue) } ?? .null),
            ("lux", lux.map(JSONValue.number) ?? .null),
            ("filtered", filtered.map(JSONValue.number) ?? .null),
            ("override", override.map { .string($0.rawValue) } ?? .null),
            ("override_remaining_s", remaining.map(JSONValue.number) ?? .null),
            ("fault", .bool(fault)),
            ("brightness", brightness.map { .number(Double($0)) } ?? .null),
        ]
        if let display { members.append(("display", .string(display.rawValue))) }
        if let whitePoint {
            members.append(("cct", whitePoint.room.map { .number(Double($0)) } ?? .null))
            members.append(("whitepoint", whitePoint.display.map { .number(Double($0)) } ?? .null))
        }
        return JSONValue.object(members).text
    }
}
