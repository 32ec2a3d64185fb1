import AmbienceI2C
import AmbienceSystem
import Testing

@testable import AmbienceSimulation

#if canImport(Glibc)
    import Glibc
#endif

/// `simulate`'s light: the profile's text, a trace file, and lux typed on an input, as the
/// emulated chip on the mock bus sees them.
@Suite struct SimulatedLightTests {
    let address: I2CAddress = 0x23

    // MARK: Profile text

    @Test func profilesWithTheirDefaultsAndFields() throws {
        #expect(try profile("day") == .day(length: 86_400))
        #expect(try profile("step") == .step(before: 5, after: 30_000, at: 30))
        #expect(try profile("step:1:2:3") == .step(before: 1, after: 2, at: 3))
        #expect(try profile("step:7") == .step(before: 7, after: 30_000, at: 30))
        #expect(try profile("noise") == .noise(level: 2500, spread: 0.3))
        #expect(try profile("noise:40:0.1") == .noise(level: 40, spread: 0.1))
        guard case .typed = try LightSwitchboard.Source(parsing: "stdin") else {
            Issue.record("stdin is typed lux")
            return
        }
    }

    @Test(arguments: [
        ("step:5:lots", ProfileError.notANumber(profile: "step:5:lots", fields: "5:lots")),
        ("step:-1", .notANumber(profile: "step:-1", fields: "-1")),
        ("noise:inf", .notANumber(profile: "noise:inf", fields: "inf")),
        ("dusk", .unknownProfile("dusk")),
        ("csv", .unknownProfile("csv")),
        ("csv:", .unknownProfile("csv:")),
        ("", .unknownProfile("")),
        (":", .unknownProfile(":")),
    ])
    func refusedProfiles(text: String, expected: ProfileError) {
        #expect(throws: expected) { try LightSwitchboard.Source(parsing: text) }
    }

    @Test func refusalsSayWhatIsWrong() {
        #expect(
            "\(ProfileError.notANumber(profile: "step:5:lots", fields: "5:lots"))"
                == "step:5:lots: '5:lots' holds something that is not a number")
        #expect(
            "\(ProfileError.unknownProfile("dusk"))"
                == "unknown profile 'dusk': use day, step, noise, csv:FILE or stdin")
    }

    @Test func aMissingTraceNamesTheFile() {
        #expect {
            try LightSwitchboard.Source(parsing: "csv:/nonexistent/trace.csv")
        } throws: { error in
            guard case .trace(let path, _) = error as? ProfileError else { return false }
            return path == "/nonexistent/trace.csv"
                && "\(error)".hasPrefix("csv:/nonexistent/trace.csv: ")
        }
    }

    @Test func aMalformedTraceRowNamesItsLine() throws {
        let file = try TraceFile("seconds,lux\n0,300\n1,bright\n")
        #expect(
            throws: ProfileError.trace(
                path: file.path, reason: "line 3: lux 'bright' is not a number, nan or empty: 1,bright")
        ) {
            try LightSwitchboard.Source(parsing: "csv:" + file.path)
        }
    }

    // MARK: A trace

    @Test func aNanRowUnplugsTheChipUntilTheNextNumber() throws {
        let file = try TraceFile("\u{FEFF}time,lux\n# a comment\n0,300\n10,nan\n20,\n30,8000\n")
        let rig = Rig(try LightSwitchboard.Source(parsing: "csv:" + file.path))
        let rows = try #require(rig.traceRows)
        #expect(rows.count == 4)

        for (time, lux, plugged) in [
            (0.0, 300.0, true), (5, 300, true), (10, 0, false), (25, 0, false), (30, 8000, true),
            (99, 8000, true),
        ] {
            rig.light.advance(to: time)
            #expect(rig.light.lux(at: time) == lux, "lux at \(time) s")
            #expect(rig.answers() == plugged, "plugged at \(time) s")
        }
    }

    @Test func aReplugPowersTheChipUpAfresh() throws {
        let file = try TraceFile("0,300\n1,nan\n2,300\n")
        let rig = Rig(try LightSwitchboard.Source(parsing: "csv:" + file.path))
        try rig.bus.write([0x01], to: address)  // power on
        #expect(rig.chip.isPoweredOn)
        rig.light.advance(to: 1)
        rig.light.advance(to: 2)
        #expect(!rig.chip.isPoweredOn, "a replugged chip has lost its settings")
    }

    // MARK: Typed lux

    @Test func typedLinesSetTheLightAndNanUnplugs() throws {
        let input = try InputPipe()
        let rig = Rig(.typed, input: input.readEnd)
        #expect(rig.light.lux(at: 0) == 300, "until something is typed")

        input.type(" 42.5\t\n")
        #expect(rig.light.readTypedLux())
        #expect(rig.light.lux(at: 1) == 42.5)
        #expect(rig.answers())

        input.type("NaN\n")
        #expect(rig.light.readTypedLux())
        #expect(!rig.answers())
        #expect(rig.light.lux(at: 2) == 42.5, "the light is kept while unplugged")

        input.type("bright\n")
        #expect(rig.light.readTypedLux(), "a mistyped line is ignored, the input still open")
        #expect(!rig.answers())

        input.type("-5\n")
        #expect(rig.light.readTypedLux())
        #expect(!rig.answers(), "negative lux is ignored")

        input.type("7000\n")
        #expect(rig.light.readTypedLux())
        #expect(rig.light.lux(at: 3) == 7000)
        #expect(rig.answers())

        input.close()
        #expect(!rig.light.readTypedLux(), "end of input")
    }

    @Test func theDaysHiccupUnplugsTheChipForAWhile() throws {
        let rig = Rig(.profile(.day(length: 2400)))
        let hiccup = LightProfile.dayHiccup.hour * 100
        rig.light.advance(to: hiccup - 1)
        #expect(rig.answers())
        rig.light.advance(to: hiccup + 1)
        #expect(!rig.answers())
        rig.light.advance(to: hiccup + LightProfile.dayHiccup.hours * 100 + 1)
        #expect(rig.answers())
        #expect(rig.light.timeOfDay(1200) == "12:00")
    }

    // MARK: Support

    private func profile(_ text: String) throws -> ComparableProfile? {
        guard case .profile(let profile) = try LightSwitchboard.Source(parsing: text) else { return nil }
        return ComparableProfile(profile)
    }

    /// The mock bus with an emulated BH1750 under the switchboard's light.
    final class Rig {
        let bus = MockI2CBus(clock: ManualClock())
        let chip: BH1750Emulator
        let light: LightSwitchboard
        let address: I2CAddress = 0x23

        init(_ source: LightSwitchboard.Source, input: FileDescriptor = .standardInput) {
            let light = LightSwitchboard(profile: source, bus: bus, address: address, input: input)
            chip = BH1750Emulator(light: light.lux)
            bus.attach(chip, at: address)
            self.light = light
        }

        var traceRows: [(time: Double, lux: Double)]? {
            guard case .profile(.trace(let rows)) = light.source else { return nil }
            return rows
        }

        /// Whether the chip acknowledges a transfer (a power-on opcode).
        func answers() -> Bool {
            do {
                try bus.write([0x01], to: address)
                return true
            } catch {
                return false
            }
        }
    }
}

/// LightProfile's cases that compare, for the expectations above.
enum ComparableProfile: Equatable {
    case day(length: Double)
    case step(before: Double, after: Double, at: Double)
    case noise(level: Double, spread: Double)
    case trace

    init(_ profile: LightProfile) {
        switch profile {
        case .day(let length): self = .day(length: length)
        case .step(let before, let after, let at): self = .step(before: before, after: after, at: at)
        case .noise(let level, let spread): self = .noise(level: level, spread: spread)
        case .trace: self = .trace
        }
    }
}

/// A trace written to a fresh file under /tmp, removed when the test ends.
final class TraceFile {
    let path: String

    init(_ text: String) throws {
        var template = Array("/tmp/ambience-trace-XXXXXX".utf8CString)
        var descriptor: Int32 = -1
        path = template.withUnsafeMutableBufferPointer { buffer in
            descriptor = mkstemp(buffer.baseAddress!)
            return String(cString: buffer.baseAddress!)
        }
        guard descriptor >= 0 else { throw Errno.current }
        let file = FileDescriptor(rawValue: descriptor)
        defer { file.close() }
        try file.writeAll(text)
    }

    deinit { unlink(path) }
}

/// A pipe standing in for standard input: the test types, the switchboard reads.
final class InputPipe {
    let readEnd: FileDescriptor
    private var writeEnd: FileDescriptor?

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Errno.current }
        readEnd = FileDescriptor(rawValue: ends[0])
        writeEnd = FileDescriptor(rawValue: ends[1])
    }

    func type(_ text: String) { try? writeEnd?.writeAll(text) }

    func close() {
        writeEnd?.close()
        writeEnd = nil
    }

    deinit {
        close()
        readEnd.close()
    }
}
