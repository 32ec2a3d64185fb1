import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceSystem

/// What `ambience probe` says about the HDMI ports' CEC adapters (/dev/cecN) and the television
/// on each: asked its power through the daemon's own `CECDisplay`, the waits slept out. The probe
/// claims no address: an adapter nobody has configured is said to be so, since the daemon
/// claims one when it starts.
public enum TelevisionProbe {
    public struct Port: Sendable {
        public var number: Int
        public var name: String
        public var driver: String
        public var finding: Finding
    }

    public enum Finding: Sendable {
        /// The adapter could not be opened or asked.
        case unusable(String)
        /// No physical address: nothing plugged in, or a TV in standby that pulled hot-plug low.
        case unplugged
        /// A physical address and no logical address yet.
        case unconfigured(physicalAddress: UInt16)
        /// The TV's answer to Give Device Power Status.
        case answered(physicalAddress: UInt16, DisplayPower)
        /// The TV acknowledges and does not report its power.
        case silent(physicalAddress: UInt16)
        /// No TV acknowledges, or the adapter failed: what the driver logged.
        case failed(physicalAddress: UInt16, String)
    }

    /// How long a TV is given to answer.
    static let answerLimit = 3.0

    public static func ports(clock: any Clock) -> [Port] {
        LinuxCECAdapter.availableAdapterNumbers().map { number in
            let path = LinuxCECAdapter.path(ofAdapter: number)
            let adapter: LinuxCECAdapter
            let identity: (name: String, driver: String)
            do throws(Errno) {
                adapter = try LinuxCECAdapter(path: path)
                identity = try adapter.identity()
            } catch {
                return Port(number: number, name: "", driver: "", finding: .unusable("\(path): \(error)"))
            }
            defer { adapter.close() }
            return Port(
                number: number, name: identity.name, driver: identity.driver,
                finding: ask(adapter, number: number, clock: clock))
        }
    }

    private static func ask(_ adapter: LinuxCECAdapter, number: Int, clock: any Clock) -> Finding {
        let address: UInt16
        do throws(Errno) {
            address = try adapter.physicalAddress()
            guard address != CEC.invalidPhysicalAddress else { return .unplugged }
            guard try adapter.logicalAddress() != nil else { return .unconfigured(physicalAddress: address) }
        } catch {
            return .unusable("\(error)")
        }
        let logged = Logged()
        let display = CECDisplay(adapter: adapter, name: "cec\(number)", log: { logged.lines.append($0) })
        display.askPower(now: clock.now)
        let end = clock.now + answerLimit
        var due = display.poll(now: clock.now)
        while display.power == nil, display.reportsPower != false, !display.isFailing, let next = due,
            next < end
        {
            clock.sleep(until: next)
            due = display.poll(now: clock.now)
        }
        if let power = display.power, display.reportsPower == true {
            return .answered(physicalAddress: address, power)
        }
        if display.reportsPower == false { return .silent(physicalAddress: address) }
        return .failed(
            physicalAddress: address, logged.lines.last ?? "no answer within \(Int(answerLimit)) s")
    }

    private final class Logged { var lines: [String] = [] }
}
