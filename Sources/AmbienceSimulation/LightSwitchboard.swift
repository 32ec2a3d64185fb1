import AmbienceCore
import AmbienceI2C
import AmbienceSystem

/// The simulated world's light: a profile, or lux typed on an input (standard input for
/// `simulate --profile stdin`); a `nan` row of a trace unplugs the emulated chip until the next
/// number.
public final class LightSwitchboard: @unchecked Sendable {
    public enum Source: Sendable {
        case profile(LightProfile)
        case typed
    }

    public let source: Source
    private let bus: MockI2CBus
    private let address: I2CAddress
    private var typedLux = 300.0
    private var unplugged = false
    // Small chunks: typed lines come one at a time, and each read is one line's wake-up.
    private var input: LineReader
    private let unpluggedRanges: [Range<Double>]

    public init(
        profile: Source, bus: MockI2CBus, address: I2CAddress, input: FileDescriptor = .standardInput
    ) {
        source = profile
        self.bus = bus
        self.address = address
        self.input = LineReader(descriptor: input, chunkSize: 256)
        if case .profile(.day(let length)) = profile {
            let start = LightProfile.dayHiccup.hour / 24 * length
            unpluggedRanges = [start..<(start + LightProfile.dayHiccup.hours / 24 * length)]
        } else {
            unpluggedRanges = []
        }
    }

    public func lux(at time: Double) -> Double {
        guard case .profile(let profile) = source else { return typedLux }
        let value = profile.lux(at: time)
        // The chip is unplugged then (see `advance`); whatever it would see is never read.
        return value.isNaN ? 0 : value
    }

    /// Before each read: the sensor is unplugged during the day's hiccup and at `nan` rows.
    public func advance(to time: Double) {
        guard case .profile(let profile) = source else { return }
        plug(!profile.lux(at: time).isNaN && !unpluggedRanges.contains { $0.contains(time) })
    }

    /// The wall-clock time the simulation starts at, for event lines: a simulated day starts at
    /// today's midnight (UTC), so its lines carry the hours the terminal shows; others start now.
    public var wallClockStart: Double {
        guard case .profile(.day) = source else { return WallClock.now }
        return (WallClock.now / 86_400).rounded(.down) * 86_400
    }

    public func timeOfDay(_ time: Double) -> String {
        guard case .profile(.day(let length)) = source else {
            return "t=" + EventLine.number((time * 10).rounded() / 10) + "s"
        }
        let minutes = Int((time / length * 24 * 60).rounded(.down)) % (24 * 60)
        return (minutes / 60 < 10 ? "0" : "") + "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "")
            + "\(minutes % 60)"
    }

    /// What one read of the input brought, line by line: a lux value, or `nan` to unplug the
    /// sensor; anything else is ignored, as a mistyped line should be. Every line that read
    /// brought is taken, since poll(2) will not report those bytes again. Returns false once the
    /// input is over (end of file, or an error reading it), so the caller stops watching it.
    public func readTypedLux() -> Bool {
        repeat {
            let line: ArraySlice<UInt8>
            do {
                guard let next = try input.nextLine() else { return false }
                line = next
            } catch {
                return false
            }
            let text = String(decoding: line, as: UTF8.self).trimmingSpaces
            if text.lowercased() == "nan" {
                plug(false)
            } else if let value = Double(text), value.isFinite, value >= 0 {
                typedLux = value
                plug(true)
            }
        } while input.hasBufferedLine
        return true
    }

    private func plug(_ connected: Bool) {
        guard connected == unplugged else { return }
        unplugged = !connected
        if connected { bus.replug(address) } else { bus.unplug(address) }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
