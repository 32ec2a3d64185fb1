import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceI2C

/// An HDMI or DisplayPort monitor's brightness (VCP feature 0x10) and power mode (0xD6) through
/// DDC/CI at 0x37 on its display cable's I2C bus.
///
/// It speaks DDC/CI's few messages itself (`DDCCI` in AmbienceDisplayProtocols) rather than
/// through Debian's libddcutil because every libddcutil call that talks to a monitor sleeps out
/// the standard's delays inside the call (its "tuned sleep" after each write and before each
/// read), so a Get or Set blocks its caller for 40 to 100 ms or more, retries included; the daemon's loop must
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
/// The power mode (`DisplaySwitch`, docs/display-sleep.md has why these choices):
/// - asleep is standby (2), the one mode every monitor with 0xD6 wakes from through DDC/CI (some
///   stop answering altogether in off, 4); awake is on (1). A power wish goes before anything
///   else, and while the monitor sleeps no brightness is read or written;
/// - the mode is read back `powerSettle` after each write and every `powerCheckInterval` after
///   that; any of 2 to 5 reads as asleep (some monitors read 2 for 4);
/// - after the first sleep the mode is read a second time: a monitor that the first read woke
///   (some do) is put to sleep again and not read while it sleeps, its power then being what
///   was last written.
///
/// A failure (no acknowledge: the monitor off or unplugged; a bad checksum; the null message) is
/// logged once when it begins; the Get is retried once a second, and its first good reply is
/// logged as the end of the fault, after which the latest wish is sent again (a monitor that was
/// off may have come back at another brightness).
public final class DDCMonitor: Backlight, DisplaySwitch {
    /// At most one Set VCP Feature a second: monitors store the value in slow non-volatile memory,
    /// and some stall or drop messages when written faster.
    public static let writeInterval = 1.0
    /// After a failure, the next attempt waits this long, in seconds.
    public static let retryInterval = 1.0
    /// The power modes written for awake and asleep.
    static let onMode: UInt16 = 1
    static let sleepMode: UInt16 = 2
    /// A monitor's own time to change its power before it is read back.
    public static let powerSettle = 1.0
    /// How often the power is read back besides: the state reported stays true within this.
    public static let powerCheckInterval = 5.0

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
    /// The power as the monitor last read it back after the latest wish was written (or as
    /// last written, for one that a read wakes); nil when unknown.
    public var power: DisplayPower? { readback.power }
    private var readback = PowerReadback()
    /// The latest power asked for, and the power last written successfully.
    private var powerWish: DisplayPower?
    private var powerWritten: DisplayPower?
    /// When the power is next read back; nil when it is not to be read.
    private var powerCheckAt: Double?
    /// Whether reading the power wakes this monitor; nil until its first sleep shows it.
    public private(set) var readWakes: Bool?
    /// The next power read is the second after a sleep, which tells whether the first woke it.
    private var confirmingSleep = false
    /// The feature of the Get whose reply is awaited, and when it was asked (a power reading
    /// counts only if no wish was made or written since).
    private var pendingGet: (code: UInt8, asked: PowerReadback.Token)?

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

    public func set(power wish: DisplayPower, now: Double) {
        guard !isClosed else { return }
        powerWish = wish
        // Asked again for what was written while it reads otherwise (a monitor that turned
        // itself on): written again.
        if wish == powerWritten, let power, power != wish { powerWritten = nil }
        // Found asleep (at start), and asked to sleep: nothing is written to a sleeping monitor.
        if wish == .off, powerWritten == nil, power == .off { powerWritten = .off }
        if wish != powerWritten { readback.wished() }
        _ = poll(now: now)
    }

    public func poll(now: Double) -> Double? {
        guard !isClosed else { return nil }
        if let due = replyDue {
            guard now >= due else { return due }
            readReply(now: now)
        }
        guard let (step, allowedAt) = nextStep() else { return nil }
        guard now >= allowedAt else { return allowedAt }
        switch step {
        case .readMaximum:
            sendGetRequest(DDCCI.brightness, now: now)
        case .write(let raw):
            sendSetRequest(raw, now: now)
        case .writePower(let wish):
            sendPower(wish, now: now)
        case .readPower:
            sendGetRequest(DDCCI.powerMode, now: now)
        }
        return replyDue ?? nextStep()?.allowedAt
    }

    /// Reads the power mode back at the next `poll` (at start, and for `ambience probe`). A
    /// monitor that a read wakes cannot be told from one that does not before its first sleep:
    /// it is read all the same, and says it is on.
    @discardableResult public func askPower(now: Double) -> Bool {
        guard !isClosed else { return false }
        powerCheckAt = now
        return true
    }

    /// Releases the bus; a monitor asked to wake that has not been told yet is told first, the
    /// standard's rest notwithstanding: nothing else would wake it.
    public func close() {
        if !isClosed, powerWish == .on, powerWritten != .on {
            try? bus?.write(DDCCI.setRequest(DDCCI.powerMode, value: Self.onMode), to: address)
        }
        isClosed = true
        replyDue = nil
        bus = nil
    }

    // MARK: The steps

    private enum Step {
        case readMaximum
        case write(UInt16)
        case writePower(DisplayPower)
        case readPower
    }

    /// The next transfer and the earliest time it may be made: a power wish first; while the
    /// monitor sleeps, only its power; else the brightness's step or the power's check,
    /// whichever is due first.
    private func nextStep() -> (step: Step, allowedAt: Double)? {
        let rest = max(busFreeAt, retryAt)
        if let powerWish, powerWish != powerWritten {
            return (.writePower(powerWish), max(rest, nextWriteAt))
        }
        let check = powerCheckAt.map { (step: Step.readPower, allowedAt: max(rest, $0)) }
        guard powerWritten != .off else { return check }
        var brightnessStep: (step: Step, allowedAt: Double)?
        if let maximum {
            if let wish, Self.raw(percent: wish, maximum: maximum) != written {
                brightnessStep = (.write(Self.raw(percent: wish, maximum: maximum)), max(rest, nextWriteAt))
            }
        } else {
            brightnessStep = (.readMaximum, rest)
        }
        switch (brightnessStep, check) {
        case (let brightness?, let check?):
            return brightness.allowedAt <= check.allowedAt ? brightness : check
        case (let brightness, let check): return brightness ?? check
        }
    }

    private func sendGetRequest(_ code: UInt8, now: Double) {
        do {
            try bus?.write(DDCCI.getRequest(code), to: address)
            pendingGet = (code, readback.asking())
            replyDue = now + DDCCI.replyDelay
        } catch {
            failed(Self.describe(error), now: now)
        }
    }

    private func readReply(now: Double) {
        replyDue = nil
        busFreeAt = now + DDCCI.messageDelay
        guard let bus, let (code, asked) = pendingGet else { return }
        pendingGet = nil
        let bytes: [UInt8]
        let value: DDCCI.FeatureValue
        do throws(I2CError) {
            bytes = try bus.read(count: DDCCI.getReplyLength, from: address)
        } catch {
            return failed(Self.describe(error), now: now)
        }
        do throws(DDCCI.ReplyError) {
            value = try DDCCI.decodeGetReply(bytes, code: code)
        } catch {
            return failed("Get VCP 0x\(code == DDCCI.powerMode ? "D6" : "10"): \(error)", now: now)
        }
        if code == DDCCI.powerMode {
            return readPower(value.current, asked: asked, now: now)
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

    private func sendPower(_ wish: DisplayPower, now: Double) {
        do {
            try bus?.write(
                DDCCI.setRequest(DDCCI.powerMode, value: wish == .on ? Self.onMode : Self.sleepMode),
                to: address)
        } catch {
            return failed(Self.describe(error), now: now)
        }
        powerWritten = wish
        busFreeAt = now + DDCCI.messageDelay
        nextWriteAt = now + Self.writeInterval
        confirmingSleep = false
        if wish == .off, readWakes == true {
            // Not read while it sleeps: it is what was written.
            readback.written(known: .off)
            powerCheckAt = nil
        } else {
            readback.written()
            powerCheckAt = now + Self.powerSettle
        }
    }

    /// A power mode read back: 1 is on, 2 to 5 asleep in one degree or another.
    private func readPower(_ mode: UInt16, asked: PowerReadback.Token, now: Double) {
        guard (1...5).contains(mode) else {
            return failed("Get VCP 0xD6: \(mode) is not a power mode", now: now)
        }
        let reading: DisplayPower = mode == Self.onMode ? .on : .off
        // Asked before the latest wish, or its write: it says nothing of the monitor now. The
        // wish is written next, and the power read after it.
        guard readback.counts(asked) else { return }
        if confirmingSleep {
            confirmingSleep = false
            readWakes = reading == .on && powerWritten == .off
            if readWakes == true {
                log(
                    "\(name): reading its power wakes this monitor: it is put back to sleep and not read while it sleeps"
                )
                powerWritten = nil  // the sleep is written again
                readback.forget()
                powerCheckAt = nil
                return
            }
        }
        readback.answered(reading, to: asked)
        if reading == .off, powerWritten == .off, readWakes == nil {
            confirmingSleep = true
            powerCheckAt = now + Self.powerSettle
        } else {
            powerCheckAt = now + Self.powerCheckInterval
        }
        if let fault {
            log("\(name): recovered after '\(fault)'; power \(reading.rawValue)")
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
        readback.forget()
        powerWritten = nil
        confirmingSleep = false
        if powerCheckAt != nil || powerWish != nil { powerCheckAt = now + Self.retryInterval }
        pendingGet = nil
        replyDue = nil
        busFreeAt = now + DDCCI.messageDelay
        retryAt = now + Self.retryInterval
    }
}
