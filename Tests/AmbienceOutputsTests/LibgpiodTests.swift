import AmbienceCore
import Testing

@testable import AmbienceOutputs

/// The real libgpiod, whichever generation the build found. No GPIO chip exists on a CI host
/// (gpio-sim scenarios run in the kernel rig), so these check what needs no chip.
@Suite struct LibgpiodTests {
    @Test func theHeadersAndTheLoadedLibraryAreOfOneGeneration() {
        print("libgpiod API generation \(Libgpiod.apiGeneration), library \(Libgpiod.libraryVersion)")
        #expect([1, 2].contains(Libgpiod.apiGeneration))
        #expect(Libgpiod.libraryVersion.hasPrefix("\(Libgpiod.apiGeneration)."))
    }

    @Test func aMissingChipPathIsAConfigurationError() {
        let configuration = GPIOIndicator.Configuration(
            chip: "/dev/gpiochip-ambience-missing", lines: [.invert: 1])
        #expect(
            throws: OutputError.configuration(
                .init(key: "chip", message: "no GPIO chip at /dev/gpiochip-ambience-missing"))
        ) { try GPIOIndicator(configuration, log: { _ in }) }
    }

    @Test func aDeviceThatIsNotAGPIOChipIsRefused() throws {
        let configuration = GPIOIndicator.Configuration(chip: "/dev/null", lines: [.invert: 1])
        do {
            _ = try GPIOIndicator(configuration, log: { _ in })
            Issue.record("/dev/null taken for a GPIO chip")
        } catch {
            #expect(error.configurationError?.key == "chip")
            #expect(error.description.contains("/dev/null is not a GPIO chip"))
        }
    }

    @Test func anUnknownLabelIsAConfigurationError() {
        let configuration = GPIOIndicator.Configuration(chip: "no-such-label-ambience", lines: [.invert: 1])
        do {
            _ = try GPIOIndicator(configuration, log: { _ in })
            Issue.record("found a chip labelled no-such-label-ambience")
        } catch {
            #expect(
                error.configurationError?.key == "chip"
                    || error.description.contains("permission denied"))
        }
    }
}
