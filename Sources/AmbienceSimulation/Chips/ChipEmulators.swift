import AmbienceSensors

/// How a chip is emulated on the mock bus under a light: registered beside each emulator.
public struct ChipEmulator: Sendable {
    public let kind: SensorKind
    public let make: @Sendable (@escaping LightSource) -> any I2CDeviceEmulator

    public init(
        _ kind: SensorKind, make: @escaping @Sendable (@escaping LightSource) -> any I2CDeviceEmulator
    ) {
        self.kind = kind
        self.make = make
    }
}

/// Every chip's emulator: the one list a new emulator is registered in.
public enum ChipEmulators {
    public static let all: [ChipEmulator] = [
        BH1750Emulator.emulator, TSL2561Emulator.emulator, VEML7700Emulator.emulator,
        TSL2591Emulator.emulator,
        OPT3001Emulator.emulator, TCS34725Emulator.emulator,
    ]

    /// What stands in for a chip no bus reaches (the kernel's, kind = "iio"): the kernel's
    /// driver cannot run on the mock bus.
    public static let standIn: SensorKind = .bh1750

    public static func emulator(_ kind: SensorKind) -> ChipEmulator? {
        all.first { $0.kind == kind }
    }
}
