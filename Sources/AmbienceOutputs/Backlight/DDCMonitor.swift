import AmbienceCore
import AmbienceSensors

/// An HDMI or DisplayPort monitor's brightness (VCP feature 0x10) through DDC/CI at 0x37 on its
/// display cable's I2C bus.
///
/// It speaks DDC/CI's few messages itself (`DDCCI` in the core) rather than through Debian's
/// libddcutil because every libddcutil call that talks to a monitor sleeps out the standard's
/// delays inside the call (its "tuned sleep" after each write and before each read), so a Get
/// or Set blocks its caller for 40 to 100 ms or more, retries included; the daemon's loop must
/// never wait, and a thread of its own for a library this size would cost more than the two
/// messages it needs. Here the delays are deadlines: `poll(now:)` does at most the one transfer
/// that is due and returns when the next one is.
///
/// The state machine:
/// - with no maximum known (at start, and again after any fault), it sends Get VCP Feature 0x10
///   and reads the reply no sooner than 40 ms later; the reply's maximum maps percent to raw;
/// - with a maximum, a wish that differs from what was last written becomes one Set VCP Feature,
///   at most one a second: wishes in between replace each other, only the latest is sent;
/// - after every message the bus rests 50 ms before the next.
///
/// A failure (no acknowledge: the monitor off or unplugged; a bad checksum; the null message) is
/// logged once when it begins; the Get is retried once a second, and its first good reply is
/// logged as the end of the fault, after which the latest wish is sent again (a monitor that was
/// off may have come back at another brightness).
public final class DDCMonitor: Backlight {
    /// At most one Set VCP Feature a second: monitors store the value in slow non-volatile memory,
    /// and some stall or drop messages when written faster.
    public static let writeInterval = 1.0
    /// After a failure, the next attempt waits this long, in seconds.
    public static let retryInterval = 1.0

    public let name: String
    /// Dropped by `close()`, which closes a bus only this monitor holds.
    private var bus: (any I2CBus)?
    private let log: OutputLog
    private let address = I2CAddress(rawValue: DDCCI.displayAddress)
    private var isClosed = false

    /// The feature's maximum as the monitor reported it; nil until a Get reply gives it.
    public private(set) var maximum: UInt16?
    /// The monitor's last good Get VCP Feature 0x10 reply: its maximum and brightness then.
    public private(set) var lastReading: DDCCI.FeatureValue?
    /// The latest percent asked for.
    public private(set) var wish: Int?
    /// The raw value last written successfully; nil when none since the last fault.
    public private(set) var written: UInt16?
    /// The fault in progress, as logged.
    public private(set) var fault: String?

    /// When the reply to an outstanding Get may be read.
    private var replyDue: Double?
    /// No message before this: the standard's rest after the last one.
    private var busFreeAt = -Double.infinity
    /// No Set before this: one a second.
    private var nextWriteAt = -Double.infinity
    /// No retry before this, after a failure.
    private var retryAt = -Double.infinity

    /// `name` is what the log calls it ("ddc:1 (0x37)"); `log` hears faults begin and end.
    public init(bus: any I2CBus, name: String, log: @escaping OutputLog) {
        self.bus = bus
        self.name = name
        self.log = log
    }

    /// The monitor on the bus `selector` names (a number or an adapter's name, as `[sensor] bus`
    /// takes it), reopened after a failure so an adapter that comes back is found again.
    /// Throws when the bus is not there at start.
    public convenience init(
        _ selector: I2CBusSelector, log: @escaping OutputLog,
        open: @escaping ReopeningI2CBus.Open = { selector throws(I2CError) in try LinuxI2CBus.open(selector) }
    ) throws(I2CError) {
        let bus = try ReopeningI2CBus(selector, open: open)
        self.init(bus: bus, name: Self.name(of: selector), log: log)
    }

    /// "ddc:1 (0x37)", "ddc:NAME (0x37)": the bus as it was given.
    public static func name(of selector: I2CBusSelector) -> String {
        let bus =
            switch selector {
            case .number(let number): String(number)
            case .name(let name): name
            }
        return "ddc:\(bus) (\(I2CAddress(rawValue: DDCCI.displayAddress)))"
    }

    /// The raw value for a percent of `maximum`, rounded to the nearest.
    public static func raw(percent: Int, maximum: UInt16) -> UInt16 {
        let clamped = min(max(percent, 0), 100)
        return UInt16((clamped * Int(maximum) + 50) / 100)
    }

    public func set(percent: Int, now: Double) {
        guard !isClosed else { return }
        wish = min(max(percent, 0), 100)
        _ = poll(now: now)
    }

    public func poll(now: Double) -> Double? {
        guard !isClosed else { return nil }
        if let due = replyDue {
            guard now >= due else { return due }
            readReply(now: now)
        }
        guard let step = nextStep() else { return nil }
        var allowedAt = max(busFreeAt, retryAt)
        if case .write = step { allowedAt = max(allowedAt, nextWriteAt) }
        guard now >= allowedAt else { return allowedAt }
        switch step {
        case .readMaximum:
            sendGetRequest(now: now)
        case .write(let raw):
            sendSetRequest(raw, now: now)
        }
        if let replyDue { return replyDue }
        guard let next = nextStep() else { return nil }
        if case .write = next { return max(busFreeAt, retryAt, nextWriteAt) }
        return max(busFreeAt, retryAt)
    }

    public func close() {
        isClosed = true
        replyDue = nil
        bus = nil
    }

    // MARK: The steps

    private enum Step {
        case readMaximum
        case write(UInt16)
    }

    private func nextStep() -> Step? {
        guard let maximum else { return .readMaximum }
        guard let wish else { return nil }
        let raw = Self.raw(percent: wish, maximum: maximum)
        return raw == written ? nil : .write(raw)
    }

    private func sendGetRequest(now: Double) {
        do {
            try bus?.write(DDCCI.getRequest(DDCCI.brightness), to: address)
            replyDue = now + DDCCI.replyDelay
        } catch {
            failed(Self.describe(error), now: now)
        }
    }

    private func readReply(now: Double) {
        replyDue = nil
        busFreeAt = now + DDCCI.messageDelay
        guard let bus else { return }
        let bytes: [UInt8]
        let value: DDCCI.FeatureValue
        do throws(I2CError) {
            bytes = try bus.read(count: DDCCI.getReplyLength, from: address)
        } catch {
            return failed(Self.describe(error), now: now)
        }
        do throws(DDCCI.ReplyError) {
            value = try DDCCI.decodeGetReply(bytes, code: DDCCI.brightness)
        } catch {
            return failed("Get VCP 0x10: \(error)", now: now)
        }
        guard value.maximum > 0 else {
            return failed("the monitor reports a maximum brightness of 0", now: now)
        }
        maximum = value.maximum
        lastReading = value
        if let fault {
            log("\(name): recovered after '\(fault)'; brightness \(value.current) of \(value.maximum)")
            self.fault = nil
        }
    }

    private func sendSetRequest(_ raw: UInt16, now: Double) {
        do {
            try bus?.write(DDCCI.setRequest(DDCCI.brightness, value: raw), to: address)
            written = raw
            busFreeAt = now + DDCCI.messageDelay
            nextWriteAt = now + Self.writeInterval
        } catch {
            failed(Self.describe(error), now: now)
        }
    }

    /// What a bus error means for a monitor: the I2C layer's hint about a sensor's wiring does
    /// not fit one that is simply off.
    static func describe(_ error: I2CError) -> String {
        guard error.kind == .notAcknowledged else { return error.explanation }
        return "no acknowledge at 0x37: the monitor is off, unplugged, or has DDC/CI switched off"
    }

    /// A fault: logged when it begins; the maximum is read again (the monitor may be another
    /// one, or back at another brightness) before the latest wish is sent again.
    private func failed(_ message: String, now: Double) {
        if fault == nil { log("\(name): \(message); retrying every second") }
        fault = message
        maximum = nil
        written = nil
        replyDue = nil
        busFreeAt = now + DDCCI.messageDelay
        retryAt = now + Self.retryInterval
    }
}
