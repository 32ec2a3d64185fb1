import AmbienceI2C
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A bus that records every transfer and answers reads from a script, in order: for asserting
/// the exact bytes a driver puts on the wire.
final class ScriptedBus: I2CBus {
    enum Transfer: Equatable, CustomStringConvertible {
        case write(I2CAddress, [UInt8])
        case read(I2CAddress, count: Int)
        case writeThenRead(I2CAddress, [UInt8], count: Int)

        var description: String {
            func bytes(_ list: [UInt8]) -> String {
                list.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
            }
            switch self {
            case .write(let address, let list): return "write \(address) [\(bytes(list))]"
            case .read(let address, let count): return "read \(address) \(count)"
            case .writeThenRead(let address, let list, let count):
                return "write \(address) [\(bytes(list))] read \(count)"
            }
        }
    }

    let name = "scripted"
    private(set) var transcript: [Transfer] = []
    /// Replies for read transfers, first in first out.
    var replies: [[UInt8]] = []
    /// Errors for upcoming transfers, first in first out; nil lets a transfer through.
    var failures: [I2CError?] = []

    init(replies: [[UInt8]] = []) { self.replies = replies }

    func write(_ bytes: [UInt8], to address: I2CAddress) throws(I2CError) {
        transcript.append(.write(address, bytes))
        try failIfScripted()
    }

    func read(count: Int, from address: I2CAddress) throws(I2CError) -> [UInt8] {
        transcript.append(.read(address, count: count))
        try failIfScripted()
        return nextReply(count)
    }

    func writeThenRead(_ bytes: [UInt8], readCount: Int, address: I2CAddress) throws(I2CError) -> [UInt8] {
        transcript.append(.writeThenRead(address, bytes, count: readCount))
        try failIfScripted()
        return nextReply(readCount)
    }

    private func failIfScripted() throws(I2CError) {
        if !failures.isEmpty, let failure = failures.removeFirst() { throw failure }
    }

    private func nextReply(_ count: Int) -> [UInt8] {
        guard !replies.isEmpty else { return [UInt8](repeating: 0xEE, count: count) }
        let reply = replies.removeFirst()
        precondition(reply.count == count, "scripted reply \(reply) for a \(count)-byte read")
        return reply
    }
}

/// Reference values written from the datasheets, independently of the drivers' code.
enum Reference {
    /// One segment of the TSL2561 formula: for CH1/CH0 up to `upTo`,
    /// lux = a·CH0 − b·CH0·ratio^1.4 (first segment) or a·CH0 − b·CH1 (others).
    struct Segment {
        var upTo: Double
        var a: Double
        var b: Double
    }

    /// TSL2561 datasheet, "Calculating Lux", T, FN and CL package.
    static let tFnClSegments = [
        Segment(upTo: 0.50, a: 0.0304, b: 0.062),
        Segment(upTo: 0.61, a: 0.0224, b: 0.031),
        Segment(upTo: 0.80, a: 0.0128, b: 0.0153),
        Segment(upTo: 1.30, a: 0.00146, b: 0.00112),
    ]

    /// The same for the CS package.
    static let csSegments = [
        Segment(upTo: 0.52, a: 0.0315, b: 0.0593),
        Segment(upTo: 0.65, a: 0.0229, b: 0.0291),
        Segment(upTo: 0.80, a: 0.0157, b: 0.0180),
        Segment(upTo: 1.30, a: 0.00338, b: 0.00260),
    ]

    /// Counts are taken to 16x and 402 ms first: ×16 at 1x, ×402/13.7 or ×402/101 by the
    /// datasheet's cycle counts 322/11 and 322/81.
    static func tsl2561Lux(
        channel0: Int, channel1: Int, gain16: Bool, milliseconds: Double, csPackage: Bool
    ) -> Double {
        let timeScale = milliseconds == 402 ? 1 : milliseconds == 101 ? 322.0 / 81 : 322.0 / 11
        let scale = timeScale * (gain16 ? 1 : 16)
        let ch0 = Double(channel0) * scale
        let ch1 = Double(channel1) * scale
        if ch0 == 0 { return 0 }
        let ratio = ch1 / ch0
        let segments = csPackage ? csSegments : tFnClSegments
        guard let index = segments.firstIndex(where: { ratio <= $0.upTo }) else { return 0 }
        let segment = segments[index]
        let value =
            index == 0
            ? segment.a * ch0 - segment.b * ch0 * pow(ratio, 1.4) : segment.a * ch0 - segment.b * ch1
        return max(0, value)
    }

    /// The datasheet's integer approximation ("Simplified Lux Calculation"), the one Adafruit's
    /// and many other drivers use: piecewise linear in the ratio, fixed point, whole lux.
    static func tsl2561IntegerLux(
        channel0: Int, channel1: Int, gain16: Bool, milliseconds: Double, csPackage: Bool
    ) -> Int {
        var channelScale = milliseconds == 402 ? 1 << 10 : milliseconds == 101 ? 0x0FE7 : 0x7517
        if !gain16 { channelScale <<= 4 }
        let ch0 = (channel0 * channelScale) >> 10
        let ch1 = (channel1 * channelScale) >> 10
        let ratio = ch0 == 0 ? 0 : (((ch1 << 10) / ch0) + 1) >> 1
        // (K, B, M): ratio bound ×2^9, coefficients ×2^14.
        let tFnCl = [
            (0x0040, 0x01F2, 0x01BE), (0x0080, 0x0214, 0x02D1), (0x00C0, 0x023F, 0x037B),
            (0x0100, 0x0270, 0x03FE), (0x0138, 0x016F, 0x01FC), (0x019A, 0x00D2, 0x00FB),
            (0x029A, 0x0018, 0x0012),
        ]
        let cs = [
            (0x0043, 0x0204, 0x01AD), (0x0085, 0x0228, 0x02C1), (0x00C8, 0x0253, 0x0363),
            (0x010A, 0x0282, 0x03DF), (0x014D, 0x0177, 0x01DD), (0x019A, 0x0101, 0x0127),
            (0x029A, 0x0037, 0x002B),
        ]
        let table = csPackage ? cs : tFnCl
        let (b, m) = table.first(where: { ratio <= $0.0 }).map { ($0.1, $0.2) } ?? (0, 0)
        let value = max(0, ch0 * b - ch1 * m) + (1 << 13)
        return value >> 14
    }

    /// BH1750 datasheet: lux = counts / 1.2 × (69 / MTreg), and half that in H-resolution mode 2.
    static func bh1750Lux(counts: Int, mtreg: Int, mode2: Bool) -> Double {
        Double(counts) / 1.2 * (69 / Double(mtreg)) / (mode2 ? 2 : 1)
    }
}

/// 0.1 lux to 100 000 lux, six steps a decade.
let luxGrid: [Double] = (0...36).map { pow(10, -1 + Double($0) / 6) }

/// Light that a test sets between reads, for an emulated chip to see.
final class Lamp {
    var lux: Double
    init(_ lux: Double) { self.lux = lux }
}
