import AmbienceCore
import AmbienceSystem
import AmbienceTestSupport
import Testing

@testable import AmbienceOutputs

private typealias Theme = Engine.OverrideCommand
private typealias Brightness = BrightnessEngine.Command

@Suite struct OverrideStoreTests {
    let directory = TemporaryDirectory()

    @Test func aHeldStateWithoutExpiryIsRestored() throws {
        let store = OverrideStore(directory: directory.file("var/lib/ambience"))
        try store.save(Theme.hold(.contrast, duration: nil), wallClockNow: 1000)
        #expect(contents(store.path) == "contrast\n")
        #expect(try store.restore(Theme.self, wallClockNow: 9_000_000) == .hold(.contrast, duration: nil))
    }

    @Test func anExpiryIsRestoredAsTheTimeLeft() throws {
        let store = OverrideStore(directory: directory.path)
        try store.save(Theme.hold(.invert, duration: 600), wallClockNow: 1_764_450_000.5)
        #expect(try store.restore(Theme.self, wallClockNow: 1_764_450_100.5) == .hold(.invert, duration: 500))
        #expect(try store.restore(Theme.self, wallClockNow: 1_764_450_600.5) == nil)
        #expect(try store.restore(Theme.self, wallClockNow: 1_764_460_000) == nil)
    }

    @Test func anEndBeyondTheLongestOverrideHoldsForTheLongest() throws {
        let store = OverrideStore(directory: directory.path)
        try AtomicFile.replace(store.path, with: "invert until 8.64e+21\n", mode: 0o644)
        #expect(
            try store.restore(Theme.self, wallClockNow: 1_000)
                == .hold(.invert, duration: ControlLine.longestOverride))
        try store.save(Theme.hold(.regular, duration: ControlLine.longestOverride), wallClockNow: 1_000)
        #expect(
            try store.restore(Theme.self, wallClockNow: 1_000)
                == .hold(.regular, duration: ControlLine.longestOverride))
    }

    @Test func autoRemovesTheRecord() throws {
        let store = OverrideStore(directory: directory.path)
        try store.save(Theme.auto, wallClockNow: 0)
        try store.save(Theme.hold(.regular, duration: nil), wallClockNow: 0)
        try store.save(Theme.auto, wallClockNow: 5)
        #expect(contents(store.path) == nil)
        #expect(try store.restore(Theme.self, wallClockNow: 10) == nil)
    }

    @Test func aFileWeDidNotWriteIsAnErrorNotAGuess() throws {
        let store = OverrideStore(directory: directory.path)
        for text in ["dim\n", "invert until soon\n", "invert for 10\n", "\n"] {
            try AtomicFile.replace(store.path, with: text, mode: 0o644)
            #expect(throws: OutputError.self) { try store.restore(Theme.self, wallClockNow: 0) }
        }
    }
}

struct BrightnessOverrideStoreTests {
    let directory = TemporaryDirectory()

    @Test func aBrightnessOverrideIsKeptApartFromTheThemesAndEndsByItsClock() throws {
        let store = OverrideStore(directory: directory.path)
        try store.save(Theme.hold(.invert, duration: nil), wallClockNow: 1_000)
        try store.save(Brightness.hold(percent: 40, duration: 7200), wallClockNow: 1_000)
        #expect(try store.restore(Brightness.self, wallClockNow: 1_200) == .hold(percent: 40, duration: 7000))
        #expect(try store.restore(Theme.self, wallClockNow: 1_200) == .hold(.invert, duration: nil))
        #expect(try store.restore(Brightness.self, wallClockNow: 9_000) == nil)
        try store.save(Brightness.hold(percent: 0, duration: nil), wallClockNow: 1_000)
        #expect(try store.restore(Brightness.self, wallClockNow: 50_000) == .hold(percent: 0, duration: nil))
        try store.save(Brightness.auto, wallClockNow: 1_000)
        #expect(try store.restore(Brightness.self, wallClockNow: 1_000) == nil)
        #expect(try store.restore(Theme.self, wallClockNow: 1_200) == .hold(.invert, duration: nil))
    }

    @Test func aFileThatIsNotAPercentIsAnError() throws {
        let store = OverrideStore(directory: directory.path)
        try AtomicFile.replace(store.brightnessPath, with: "bright\n", mode: 0o644)
        #expect(throws: OutputError.self) { try store.restore(Brightness.self, wallClockNow: 0) }
    }
}
