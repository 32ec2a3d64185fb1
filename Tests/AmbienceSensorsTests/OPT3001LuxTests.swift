import AmbienceSensors
import AmbienceSystem
import Testing

/// The driver's lux against the datasheet's RESULT table, written out here again: every
/// exponent's LSB, over a grid of mantissas, through the driver under every range and
/// conversion-time setting.
@Suite struct OPT3001LuxTests {
    /// OPT3001 datasheet, "Result Register": E[3:0] 0 to 11 and the lux per LSB of each.
    static let luxPerLSB: [Double] = [
        0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48,
    ]

    static func referenceLux(exponent: Int, mantissa: Int) -> Double {
        luxPerLSB[exponent] * Double(mantissa)
    }

    static let mantissas = [0, 1, 2, 3, 7, 10, 99, 100, 255, 256, 1000, 2047, 2048, 3000, 4094, 4095]

    static let allSettings: [OPT3001.Settings] = OPT3001.ConversionTime.allCases.flatMap { time in
        ([.automatic] + OPT3001.FullScale.all.map(OPT3001.RangeSetting.fixed)).map {
            OPT3001.Settings(range: $0, conversionTime: time)
        }
    }

    @Test func staticFormulaMatchesTheTable() {
        for exponent in 0...11 {
            for mantissa in Self.mantissas {
                let raw = UInt16(exponent) << 12 | UInt16(mantissa)
                let expected = Self.referenceLux(exponent: exponent, mantissa: mantissa)
                #expect(abs(OPT3001.lux(result: raw) - expected) <= expected * 1e-12, "0x\(raw)")
            }
        }
    }

    @Test(arguments: allSettings)
    func driverReadingsMatchTheTable(settings: OPT3001.Settings) throws {
        let word = settings.configurationWord
        let ready = [UInt8(word >> 8), UInt8(word & 0xFF) | 0x80]
        // Under a fixed range the chip reports that range's exponent; under automatic, any.
        let exponents: [Int]
        if case .fixed(let range) = settings.range {
            exponents = [Int(range.number)]
        } else {
            exponents = Array(0...11)
        }
        var replies: [[UInt8]] = [[0x54, 0x49], [0x30, 0x01], [UInt8(word >> 8), UInt8(word & 0xFF)]]
        for exponent in exponents {
            for mantissa in Self.mantissas {
                let raw = UInt16(exponent) << 12 | UInt16(mantissa)
                replies += [ready, [UInt8(raw >> 8), UInt8(raw & 0xFF)]]
            }
        }
        let bus = ScriptedBus(replies: replies)
        let clock = ManualClock()
        let sensor = OPT3001(bus: bus, settings: settings, clock: clock)
        for exponent in exponents {
            for mantissa in Self.mantissas {
                let reading = try sensor.read(waitingOn: clock)
                let expected = Self.referenceLux(exponent: exponent, mantissa: mantissa)
                #expect(abs(reading.lux - expected) <= expected * 1e-12, "E \(exponent) R \(mantissa)")
                // Full counts saturate a fixed range, and the top one under automatic range.
                let saturated = mantissa == 4095 && (settings.range != .automatic || exponent == 11)
                #expect(reading.isSaturated == saturated, "E \(exponent) R \(mantissa)")
                clock.advance(by: 1)
            }
        }
        #expect(bus.replies.isEmpty)
    }
}
