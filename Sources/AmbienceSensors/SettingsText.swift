// How a configuration file writes the drivers' settings, and what it means by leaving them out.
// The `init(parsing:)` initialisers take a few aliases too; these are the one spelling a file
// is documented with and written back in.

extension BH1750 {
    /// Where the driver looks when no address is configured: ADDR low.
    public static let defaultAddress: I2CAddress = 0x23
}

extension TSL2561 {
    /// Where the driver looks when no address is configured: ADDR floating.
    public static let defaultAddress: I2CAddress = 0x39
}

extension BH1750.ModeSetting {
    /// Every setting a configuration can choose, in the order they are listed to the user.
    public static let configurationChoices: [Self] = [.automatic] + BH1750.Mode.allCases.map(Self.fixed)

    /// "auto", "high", "high2" or "low": the key `mode` of `[sensor.bh1750]`.
    public var configurationText: String {
        switch self {
        case .automatic: "auto"
        case .fixed(.high): "high"
        case .fixed(.high2): "high2"
        case .fixed(.low): "low"
        }
    }
}

extension TSL2561.GainSetting {
    /// Every setting a configuration can choose, in the order they are listed to the user.
    public static let configurationChoices: [Self] = [.automatic, .fixed(.x1), .fixed(.x16)]

    /// "auto", "1x" or "16x": the key `gain` of `[sensor.tsl2561]`.
    public var configurationText: String {
        switch self {
        case .automatic: "auto"
        case .fixed(.x1): "1x"
        case .fixed(.x16): "16x"
        }
    }
}

extension TSL2561.IntegrationTime {
    /// 13.7, 101 or 402: the key `integration` of `[sensor.tsl2561]`, in milliseconds.
    public var milliseconds: Double {
        switch self {
        case .ms13point7: 13.7
        case .ms101: 101
        case .ms402: 402
        }
    }
}
