import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceSystem

/// A television's power through HDMI-CEC (`CEC` in AmbienceDisplayProtocols has the messages):
/// asleep is Standby sent to the TV, awake is Image View On and then Active Source, so the TV
/// shows this computer's input. docs/display-sleep.md has why these choices.
///
/// - What is reported is the TV's word: Give Device Power Status, asked at start, `powerSettle`
///   after each command and every `powerCheckInterval`. A TV on its way reports where it goes;
///   one that answers as it was for a while after a command is on its way too (nothing is
///   reported) until `transitionLimit`, when its answer is believed.
/// - A command is sent only when the wish differs from what the TV last said: a TV that is on
///   when the daemon starts is not switched to this input, and one that someone turned off with
///   its remote is not turned on again behind their back (only a new wish does that).
/// - A TV that pulls hot-plug low in standby takes the adapter's physical address and logical
///   address with it. That is asleep as far as this computer's picture goes; the TV is woken
///   with Image View On from the unregistered address, the one message the kernel allows then,
///   and Active Source follows once the framework has claimed the address again.
/// - A TV that does not answer Give Device Power Status (some never do) is said once, and its
///   power is then what it was last told: the one place the daemon reports its own wish.
/// - No acknowledge (no TV at address 0), or a message the adapter refuses, is a fault logged
///   once and retried every second; the latest wish is sent again once the TV answers.
public final class CECDisplay: DisplaySwitch {
    public static let retryInterval = 1.0
    /// How long after a command its effect is read back.
    public static let powerSettle = 1.0
    /// How often the power is read back while nothing is asked: the state the daemon reports
    /// stays true within this.
    public static let powerCheckInterval = 5.0
    /// How often the adapter is asked for outcomes while a message is on the bus: a message and
    /// its reply take 50 ms to a second and a bit.
    static let outcomePollInterval = 0.1
    /// An outcome that has not come after this long never will: the adapter is stuck.
    static let outcomeLimit = 5.0
    /// How long a TV may go on answering its old power after a command before that answer is
    /// believed: TVs take seconds to change, and some say so (standby to on) while others
    /// answer as they were until they have.
    static let transitionLimit = 15.0
    /// How long a port with a physical address may stay without a logical address (the
    /// framework claims one in well under a second) before that is a fault.
    static let claimLimit = 5.0

    private enum Purpose: Equatable {
        case command(DisplayPower)
        case activeSource
        /// A power status, asked after the wish the token names (`PowerReadback`: an answer to
        /// one asked before the latest wish was sent says nothing).
        case powerStatus(PowerReadback.Token)
    }

    public let name: String
    public var power: DisplayPower? { readback.power }
    private var readback = PowerReadback()
    /// What the TV last said, kept while `power` is unknown after a wish: the wish is sent at once
    /// when it differs, not after the next question.
    private var lastHeard: DisplayPower?
    /// The last command delivered and when, until the TV's answer agrees with it.
    private var changing: (power: DisplayPower, since: Double)?
    /// Whether the TV answers Give Device Power Status; nil until it has been asked.
    public private(set) var reportsPower: Bool?
    private let adapter: any CECAdapter
    private let log: OutputLog
    private var wish: DisplayPower?
    /// The last command the TV acknowledged; nil after a fault or when a wish must be sent anew.
    private var sent: DisplayPower?
    /// Whether the TV was woken while the port had no address, so that Active Source is still
    /// to be said once the framework has claimed one.
    private var owesActiveSource = false
    private var pending: [(sequence: UInt32, purpose: Purpose, since: Double)] = []
    private var checkAt = -Double.infinity
    private var retryAt: Double?
    private var unclaimedSince: Double?
    private var isClosed = false
    private var trouble: FaultReport

    public init(adapter: any CECAdapter, name: String, log: @escaping OutputLog) {
        self.adapter = adapter
        self.name = name
        self.log = log
        trouble = FaultReport(log: log)
    }

    public func set(power wish: DisplayPower, now: Double) {
        guard !isClosed else { return }
        self.wish = wish
        guard wish != power else { return }
        // Told again: a TV that is not as told gets the command again, even one sent before;
        // what it says is unknown until it is asked after the command.
        sent = nil
        readback.wished()
        _ = poll(now: now)
    }

    /// Whether a fault is being retried.
    public var isFailing: Bool { trouble.isFailing }

    /// Reads the power back at the next `poll` (at start, and for `ambience probe`).
    @discardableResult public func askPower(now: Double) -> Bool {
        guard !isClosed else { return false }
        checkAt = now
        return true
    }

    public func poll(now: Double) -> Double? {
        guard !isClosed else { return nil }
        collectOutcomes(now: now)
        if let due = retryAt {
            guard now >= due else { return due }
            retryAt = nil
        }
        if pending.isEmpty { act(now: now) }
        if !pending.isEmpty { return now + Self.outcomePollInterval }
        return retryAt ?? checkAt
    }

    /// Releases the adapter; a TV asked to wake that has not been told yet is told first.
    public func close() {
        guard !isClosed else { return }
        if wish == .on, sent != .on {
            let initiator = (try? adapter.logicalAddress()) ?? nil
            _ = try? adapter.transmit(CEC.imageViewOnMessage(from: initiator ?? CEC.unregistered), reply: nil)
        }
        isClosed = true
        pending = []
        adapter.close()
    }

    // MARK: The steps

    /// Sends what is due: the wish when the TV is not as wished (asking it first when that is
    /// not known), else Active Source once the address is back, else the power check.
    private func act(now: Double) {
        // The adapter is read only when something is due: the loop calls at every sample.
        let due = (wish != nil && wish != sent) || owesActiveSource || unclaimedSince != nil || now >= checkAt
        guard due else { return }
        let address: UInt16
        let initiator: UInt8?
        do throws(Errno) {
            address = try adapter.physicalAddress()
            initiator = try adapter.logicalAddress()
        } catch {
            return failed(error.description, now: now)
        }
        let plugged = address != CEC.invalidPhysicalAddress
        if plugged, initiator == nil {
            // The framework is claiming its address; only a claim that never ends is a fault.
            let since = unclaimedSince ?? now
            unclaimedSince = since
            if now - since >= Self.claimLimit {
                return failed(
                    "a physical address but no logical address:"
                        + " another program keeps the adapter unconfigured", now: now)
            }
            retryAt = now + Self.outcomePollInterval
            return
        }
        unclaimedSince = nil
        if !plugged {
            // No physical address: nothing shows this computer. A TV in standby pulls hot-plug
            // low, so that is asleep, and nothing but Image View On may be sent.
            readback.assume(.off)
            lastHeard = .off
            recovered("off (no hot-plug)")
        }
        if let wish, sent != wish {
            let believed = power ?? lastHeard
            if believed == wish {
                sent = wish
            } else if believed != nil || reportsPower == false {
                return command(wish, from: initiator, at: address, now: now)
            }
        }
        if let initiator, wish == .on, owesActiveSource {
            return send(
                CEC.activeSourceMessage(from: initiator, physicalAddress: address), .activeSource, now: now)
        }
        guard now >= checkAt else { return }
        guard let initiator, reportsPower != false else {
            if reportsPower == false { readback.assume(sent) }
            checkAt = now + Self.powerCheckInterval
            return
        }
        send(
            CEC.powerStatusRequest(from: initiator), .powerStatus(readback.asking()),
            reply: CEC.reportPowerStatus,
            now: now)
    }

    /// Sends the wish; the power is unknown until the TV says it again.
    private func command(_ wish: DisplayPower, from initiator: UInt8?, at address: UInt16, now: Double) {
        switch (wish, initiator) {
        case (.on, let initiator):
            readback.forget()
            send(CEC.imageViewOnMessage(from: initiator ?? CEC.unregistered), .command(.on), now: now)
            owesActiveSource = initiator == nil
            if let initiator {
                send(
                    CEC.activeSourceMessage(from: initiator, physicalAddress: address), .activeSource,
                    now: now)
            }
        case (.off, let initiator?):
            readback.forget()
            send(CEC.standbyMessage(from: initiator), .command(.off), now: now)
        case (.off, nil):
            sent = .off  // hot-plug is low: the TV is asleep already
        }
    }

    private func send(_ message: [UInt8], _ purpose: Purpose, reply: UInt8? = nil, now: Double) {
        do throws(Errno) {
            let sequence = try adapter.transmit(message, reply: reply)
            pending.append((sequence, purpose, now))
        } catch {
            failed("cannot send: " + error.description, now: now)
        }
    }

    private func collectOutcomes(now: Double) {
        while !pending.isEmpty {
            let outcome: CECOutcome?
            do throws(Errno) {
                outcome = try adapter.receive()
            } catch {
                return failed(error.description, now: now)
            }
            guard let outcome else { break }
            guard let index = pending.firstIndex(where: { $0.sequence == outcome.sequence }) else { continue }
            let purpose = pending.remove(at: index).purpose
            take(outcome, of: purpose, now: now)
        }
        if let oldest = pending.first, now - oldest.since >= Self.outcomeLimit {
            failed("a message sent has had no outcome for 5 seconds", now: now)
        }
    }

    private func take(_ outcome: CECOutcome, of purpose: Purpose, now: Double) {
        guard outcome.delivered else {
            return failed(
                outcome.notAcknowledged
                    ? "no TV acknowledges at logical address 0: it is unplugged, or has CEC switched off"
                    : "the message did not go out on the CEC line", now: now)
        }
        switch purpose {
        case .command(let wish):
            sent = wish
            changing = (wish, now)
            checkAt = now + Self.powerSettle
            readback.written(known: reportsPower == false ? wish : nil)
        case .activeSource:
            owesActiveSource = false
        case .powerStatus(let asked):
            guard readback.counts(asked) else { break }
            checkAt = now + Self.powerCheckInterval
            guard case .received(let reply) = outcome.reply else {
                if reportsPower != false {
                    log("display " + name + ": the TV does not report its power; it is reported as last told")
                }
                reportsPower = false
                readback.assume(sent)
                return
            }
            guard let reading = CEC.power(inReport: reply) else {
                return failed("a Report Power Status without a power status", now: now)
            }
            reportsPower = true
            lastHeard = reading
            if let changing, reading != changing.power, now - changing.since < Self.transitionLimit {
                // Still as it was: on its way, not refusing. Asked again in a second.
                readback.forget()
                checkAt = now + Self.powerSettle
                return
            }
            changing = nil
            readback.answered(reading, to: asked)
            recovered(reading.rawValue)
        }
    }

    /// The end of a fault, with what the TV is now.
    private func recovered(_ power: String) {
        trouble.succeeded("display " + name + ": answering again; " + power)
    }

    private func failed(_ message: String, now: Double) {
        trouble.failed("display " + name + ": " + message + "; retrying every second")
        readback.forget()
        lastHeard = nil
        changing = nil
        sent = nil
        pending = []
        unclaimedSince = nil
        retryAt = now + Self.retryInterval
        checkAt = now + Self.retryInterval
    }
}

extension CECDisplay {
    /// What the TV's source list calls this computer when the daemon claims the address.
    public static let sourceName = "ambience"

    /// /dev/cecN opened, and a Playback address claimed on it unless a program configured it
    /// already, so that a missing adapter or permission stops the daemon at start with the way
    /// out. Errors name the key `device`.
    public static func open(adapter number: Int, log: @escaping OutputLog) throws(OutputError) -> CECDisplay {
        let path = LinuxCECAdapter.path(ofAdapter: number)
        let adapter: LinuxCECAdapter
        do throws(Errno) {
            adapter = try LinuxCECAdapter(path: path)
        } catch  where error == .noSuchFileOrDirectory {
            throw .configuration(
                ConfigurationError(
                    key: "device",
                    message: "cec:\(number): no such adapter (a Pi's HDMI ports are cec:0 and cec:1 under"
                        + " vc4-kms-v3d; `ambience probe` lists this machine's)"))
        } catch {
            throw Files.failure("open", path, error)
        }
        let name = "cec\(number)"
        do throws(Errno) {
            if try adapter.claimPlaybackAddress(osdName: sourceName) {
                log("display \(name): claiming a Playback address, named \"ambience\" on the TV")
            }
        } catch {
            // Another program holds the adapter as its exclusive initiator: it keeps its
            // addresses, and messages go out from them.
            log("display \(name): cannot claim an address (\(error)): the adapter's own are used")
        }
        return CECDisplay(adapter: adapter, name: name, log: log)
    }
}
