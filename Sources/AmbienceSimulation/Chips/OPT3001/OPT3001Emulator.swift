import AmbienceSensors

/// An OPT3001 at register level, as its datasheet describes it.
///
/// - A write's first byte is the register pointer; two more bytes (most significant first)
///   write that register. A read returns the pointed register, most significant byte first.
/// - After power-on: CONFIGURATION 0xC810 (automatic range, 800 ms, shut down), RESULT 0,
///   LOW LIMIT 0x0000, HIGH LIMIT 0xBFFF; IDs 0x5449 and 0x3001.
/// - Writing CONFIGURATION with M = 01 or 1x starts a conversion at once (single-shot returns
///   to M = 00 after it). A finished conversion sets CRF and OVF and replaces RESULT; reading
///   or writing CONFIGURATION clears CRF.
/// - The light is sampled mid-conversion. In automatic range the chip takes the most sensitive
///   range that holds it; when the light has outgrown the previous conversion's range the
///   conversion is aborted and taken again, so it ends a conversion time later (the datasheet's
///   "a measurement can take longer" after a fast rise). Counts are floored, and at 100 ms the
///   resolution is no finer than 0.08 lux.
/// - Light beyond the range (83 865.6 lux at most) gives 4095 counts and OVF.
/// - The window comparator, INT pin and fault count are not emulated.
public final class OPT3001Emulator: I2CDeviceEmulator {
    public var light: LightSource
    /// How much slower than nominal the chip's oscillator runs: 0.1 is the datasheet's slowest
    /// (880 ms for 800 ms).
    public var slowness: Double
    /// Rule breaks seen on the wire (a write of one byte after the pointer, a write to a
    /// read-only register, an unknown pointer): a correct driver leaves this empty.
    public private(set) var protocolViolations: [String] = []
    /// Conversions retaken after the light outgrew the range.
    public private(set) var retakenConversions = 0

    public private(set) var configuration: UInt16 = 0xC810
    public private(set) var result: UInt16 = 0
    private var lowLimit: UInt16 = 0
    private var highLimit: UInt16 = 0xBFFF
    private var pointer: UInt8 = 0
    private var conversionStart = 0.0
    private var retaking = false
    private var lastExponent = 0

    public init(slowness: Double = 0, light: @escaping LightSource) {
        self.slowness = slowness
        self.light = light
    }

    public var isConverting: Bool { configuration & 0x0600 != 0 }

    public func powerOnReset(at time: Double) {
        configuration = 0xC810
        result = 0
        lowLimit = 0
        highLimit = 0xBFFF
        pointer = 0
        conversionStart = time
        retaking = false
        lastExponent = 0
    }

    public func receive(_ bytes: [UInt8], at time: Double) {
        convert(until: time)
        guard let first = bytes.first else { return }
        pointer = first
        guard bytes.count > 1 else { return }
        guard bytes.count == 3 else {
            protocolViolations.append("write of \(bytes.count - 1) data bytes; registers take 2")
            return
        }
        let value = UInt16(bytes[1]) << 8 | UInt16(bytes[2])
        switch pointer {
        case 0x01:
            // CRF, OVF, FH and FL are read-only.
            configuration = (value & 0xFE1F) | (configuration & 0x0060)
            if isConverting {
                conversionStart = time
                retaking = false
            }
        case 0x02: lowLimit = value
        case 0x03: highLimit = value
        default:
            protocolViolations.append("write of 0x\(hexWord(value)) to register 0x\(hex(pointer))")
        }
    }

    public func transmit(count: Int, at time: Double) -> [UInt8] {
        convert(until: time)
        let value: UInt16
        switch pointer {
        case 0x00: value = result
        case 0x01:
            value = configuration
            configuration &= ~0x0080
        case 0x02: value = lowLimit
        case 0x03: value = highLimit
        case 0x7E: value = 0x5449
        case 0x7F: value = 0x3001
        default:
            protocolViolations.append("read of unknown register 0x\(hex(pointer))")
            value = 0xFFFF
        }
        return (0..<count).map { $0 % 2 == 0 ? UInt8(value >> 8) : UInt8(value & 0xFF) }
    }

    private var conversionSeconds: Double {
        (configuration & 0x0800 != 0 ? 0.8 : 0.1) * (1 + slowness)
    }

    /// Completes the conversions that ended by `time`.
    private func convert(until time: Double) {
        guard isConverting else { return }
        let duration = conversionSeconds
        // A long gap: only the last few conversions can matter.
        if time - conversionStart > 10 * duration {
            conversionStart += ((time - conversionStart) / duration - 4).rounded(.down) * duration
        }
        while isConverting && conversionStart + duration <= time {
            let end = conversionStart + duration
            conversionStart = end
            let lux = max(0, light(end - duration / 2))
            let automatic = configuration >> 12 == 0b1100
            var exponent = automatic ? Self.fittingExponent(lux) : Int(min(configuration >> 12, 11))
            if automatic && exponent > lastExponent && !retaking {
                // Outgrown: abort, go up, take it again.
                retaking = true
                retakenConversions += 1
                lastExponent = exponent
                continue
            }
            retaking = false
            if automatic { lastExponent = exponent } else { exponent = min(exponent, 11) }
            store(lux: lux, exponent: exponent)
            if configuration & 0x0600 == 0x0200 { configuration &= ~0x0600 }
        }
    }

    private func store(lux: Double, exponent: Int) {
        let luxPerCount = 0.01 * Double(1 << exponent)
        var counts = (lux / luxPerCount).rounded(.down)
        if configuration & 0x0800 == 0 && luxPerCount < 0.08 {
            counts = (lux / 0.08).rounded(.down) * (0.08 / luxPerCount)
        }
        let overflow = counts > 4095
        result = UInt16(exponent) << 12 | UInt16(min(4095, counts))
        configuration = (configuration & ~0x0100) | (overflow ? 0x0100 : 0) | 0x0080
    }

    /// The most sensitive exponent whose 4095 counts hold the light; 11 beyond that.
    static func fittingExponent(_ lux: Double) -> Int {
        (0...11).first { lux <= 0.01 * Double(1 << $0) * 4095 } ?? 11
    }
}

private func hexWord(_ value: UInt16) -> String {
    hex(UInt8(value >> 8)) + hex(UInt8(value & 0xFF))
}

extension OPT3001Emulator {
    /// `simulate`'s OPT3001, in `ChipEmulators.all`.
    public static let emulator = ChipEmulator(.opt3001) { light in OPT3001Emulator(light: light) }
}
