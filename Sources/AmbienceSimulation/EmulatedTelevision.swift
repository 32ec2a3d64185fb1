import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceOutputs
import AmbienceSystem

/// A television at the other end of a CEC adapter, for tests and `simulate`: it obeys Standby
/// and Image View On, answers Give Device Power Status, switches to an Active Source, and the
/// adapter refuses what the kernel's framework refuses while unconfigured. A message's outcome
/// is ready at the next `receive`, as if the bus were instant.
public final class EmulatedTelevision: CECAdapter {
    /// The TV's own state.
    public var power: DisplayPower
    /// The input the TV shows, by the physical address an Active Source gave it.
    public private(set) var shownInput: UInt16?
    /// False: a TV that acknowledges Give Device Power Status and never answers it.
    public var answersPowerStatus = true
    /// False: no TV on the bus (unplugged, or CEC switched off in its menu).
    public var acknowledges = true
    /// True: the TV pulls hot-plug low in standby, taking the port's addresses with it.
    public var pullsHotPlugInStandby = false
    /// The port's physical address, and the logical address the framework claimed on it.
    public var portAddress: UInt16
    public var claimedAddress: UInt8?
    /// How many questions after a Standby or Image View On the TV answers with its old power,
    /// as a slow TV does.
    public var answersLate = 0
    private var lateAnswers: (left: Int, power: DisplayPower)?
    /// True: outcomes wait on the bus until it is false again (a message in flight).
    public var holdsOutcomes = false
    /// Every message handed to the adapter, in order.
    public private(set) var messages: [[UInt8]] = []
    public private(set) var isClosed = false
    private var outcomes: [CECOutcome] = []
    private var sequence: UInt32 = 0

    public init(power: DisplayPower = .on, portAddress: UInt16 = 0x1000, claimedAddress: UInt8? = 4) {
        self.power = power
        self.portAddress = portAddress
        self.claimedAddress = claimedAddress
    }

    private var hotPlug: Bool { !(pullsHotPlugInStandby && power == .off) }

    public func physicalAddress() throws(Errno) -> UInt16 {
        hotPlug ? portAddress : CEC.invalidPhysicalAddress
    }

    public func logicalAddress() throws(Errno) -> UInt8? {
        hotPlug ? claimedAddress : nil
    }

    public func transmit(_ message: [UInt8], reply: UInt8?) throws(Errno) -> UInt32 {
        guard !isClosed else { throw .badFileDescriptor }
        let configured = try logicalAddress() != nil
        if !configured {
            // The framework's rule: only Image View On (or a ping) to the TV, from unregistered.
            guard message.count == 2, message[0] == 0xF0, message[1] == CEC.imageViewOn else {
                throw .notOnNetwork
            }
            guard reply == nil else { throw .invalidArgument }
        }
        messages.append(message)
        sequence += 1
        let destination = message[0] & 0x0F
        guard acknowledges || destination == CEC.broadcast else {
            outcomes.append(CECOutcome(sequence: sequence, delivered: false, notAcknowledged: true))
            return sequence
        }
        var outcome = CECOutcome(sequence: sequence, delivered: true)
        switch message.count > 1 ? message[1] : nil {
        case CEC.imageViewOn?:
            change(to: .on)
        case CEC.standby?:
            change(to: .off)
        case CEC.activeSource? where message.count == 4:
            shownInput = UInt16(message[2]) << 8 | UInt16(message[3])
        case CEC.giveDevicePowerStatus?:
            outcome.reply =
                answersPowerStatus
                ? .received([message[0] >> 4, CEC.reportPowerStatus, answeredPower() == .on ? 0 : 1])
                : .timedOut
        default:
            break
        }
        outcomes.append(outcome)
        return sequence
    }

    private func change(to new: DisplayPower) {
        if answersLate > 0, new != power { lateAnswers = (answersLate, power) }
        power = new
    }

    private func answeredPower() -> DisplayPower {
        guard let late = lateAnswers else { return power }
        lateAnswers = late.left > 1 ? (late.left - 1, late.power) : nil
        return late.power
    }

    public func receive() throws(Errno) -> CECOutcome? {
        guard !isClosed else { throw .badFileDescriptor }
        return outcomes.isEmpty || holdsOutcomes ? nil : outcomes.removeFirst()
    }

    public func close() { isClosed = true }
}
