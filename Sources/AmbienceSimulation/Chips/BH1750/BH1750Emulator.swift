import AmbienceSensors

/// A BH1750 at command level, as its datasheet describes it.
///
/// - Each write transfer carries one opcode: 0x00 power down, 0x01 power on, 0x07 reset (clears
///   the data register; ignored while powered down), 0x10/0x11/0x13 continuous H-res, H-res2,
///   L-res, 0x20/0x21/0x23 the same once (then power down), 0x40|MT[7:5] and 0x60|MT[4:0].
/// - A measurement command starts a measurement with the MTreg in force at that moment; a new
///   MTreg waits for the next measurement command. The first result is in after the
///   measurement time (typically 120 ms for H-res and H-res2, 16 ms for L-res, × MTreg/69).
/// - A read transfer returns the data register, high byte first.
/// - counts = lux × 1.2 × MTreg/69 (× 2 in H-res2), floored, clamped at 65535; L-res keeps
///   only multiples of 4 (its coarse, about 4 lx, resolution).
/// - After power-on reset: powered down, MTreg 69, data 0.
public final class BH1750Emulator: I2CDeviceEmulator {
    public var light: LightSource
    /// Fault injection: the data register reads this whatever the light.
    public var stuckCounts: UInt16?
    public private(set) var protocolViolations: [String] = []

    public private(set) var isPoweredOn = false
    /// MTreg as last written (it applies from the next measurement command).
    public private(set) var measurementTimeRegister: UInt8 = 69
    private var data: UInt16 = 0
    private var measurement: Measurement?

    private struct Measurement {
        var opcode: UInt8
        var measurementTime: UInt8
        var start: Double

        var isContinuous: Bool { opcode & 0x20 == 0 }
        var isHighResolution2: Bool { opcode & 0x0F == 0x01 }
        var isLowResolution: Bool { opcode & 0x0F == 0x03 }
        var duration: Double { (isLowResolution ? 0.016 : 0.120) * Double(measurementTime) / 69 }
    }

    public init(light: @escaping LightSource) {
        self.light = light
    }

    /// What a read would return now.
    public var dataRegister: UInt16 { stuckCounts ?? data }

    /// The mode being measured in, as the driver names it (nil when idle or one-time).
    public var continuousMode: BH1750.Mode? {
        guard let measurement, measurement.isContinuous else { return nil }
        return measurement.isLowResolution ? .low : measurement.isHighResolution2 ? .high2 : .high
    }

    /// The MTreg the running measurement uses.
    public var activeMeasurementTime: UInt8? { measurement?.measurementTime }

    public func powerOnReset(at time: Double) {
        isPoweredOn = false
        measurementTimeRegister = 69
        data = 0
        measurement = nil
    }

    public func receive(_ bytes: [UInt8], at time: Double) {
        measure(until: time)
        guard let opcode = bytes.first else { return }
        if bytes.count > 1 {
            protocolViolations.append(
                "\(bytes.count) bytes in one write; the BH1750 takes one opcode per transfer")
        }
        switch opcode {
        case 0x00:
            isPoweredOn = false
            measurement = nil
        case 0x01:
            isPoweredOn = true
        case 0x07:
            if isPoweredOn {
                data = 0
            } else {
                protocolViolations.append("reset (0x07) while powered down is ignored")
            }
        case 0x10, 0x11, 0x13, 0x20, 0x21, 0x23:
            if !BH1750.measurementTimeRange.contains(Int(measurementTimeRegister)) {
                protocolViolations.append("measurement with MTreg \(measurementTimeRegister), outside 31–254")
            }
            isPoweredOn = true
            measurement = Measurement(opcode: opcode, measurementTime: measurementTimeRegister, start: time)
        case 0x40...0x47:
            measurementTimeRegister = (measurementTimeRegister & 0x1F) | (opcode & 0x07) << 5
        case 0x60...0x7F:
            measurementTimeRegister = (measurementTimeRegister & 0xE0) | (opcode & 0x1F)
        default:
            protocolViolations.append("unknown opcode 0x\(hex(opcode))")
        }
    }

    public func transmit(count: Int, at time: Double) -> [UInt8] {
        measure(until: time)
        let value = dataRegister
        return (0..<count).map { index in
            switch index {
            case 0: UInt8(value >> 8)
            case 1: UInt8(value & 0xFF)
            default: 0xFF
            }
        }
    }

    /// Completes the measurements that ended by `time`.
    private func measure(until time: Double) {
        guard var running = measurement, time >= running.start + running.duration else { return }
        let completed = ((time - running.start) / running.duration).rounded(.down)
        let end = running.start + (running.isContinuous ? completed : 1) * running.duration
        data = counts(for: running, midpoint: end - running.duration / 2)
        if running.isContinuous {
            running.start = end
            measurement = running
        } else {
            measurement = nil
            isPoweredOn = false
        }
    }

    private func counts(for measurement: Measurement, midpoint: Double) -> UInt16 {
        var counts = max(0, light(midpoint)) * 1.2 * Double(measurement.measurementTime) / 69
        if measurement.isHighResolution2 { counts *= 2 }
        guard counts < 65535 else { return 65535 }
        let floored = UInt16(counts.rounded(.down))
        return measurement.isLowResolution ? floored & ~0x3 : floored
    }
}

extension BH1750Emulator {
    /// `simulate`'s BH1750, in `ChipEmulators.all`.
    public static let emulator = ChipEmulator(.bh1750) { light in BH1750Emulator(light: light) }
}
