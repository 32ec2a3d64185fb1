import AmbienceI2C
import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct I2CErrorTests {
    /// i2c-stub (like other SMBus-level adapters) answers ENODEV for an address where no chip
    /// sits. A transfer runs on an open bus, so that is a missing chip, not a missing bus: probe
    /// must skip the address quietly, and a driver retry it, instead of asking whether I2C is
    /// enabled at all.
    @Test func aTransfersENODEVIsNoAcknowledgeNotAMissingBus() {
        let error = I2CError(
            transferErrno: Errno.operationNotSupportedByDevice, bus: "/dev/i2c-1", address: 0x29)
        #expect(error.kind == .notAcknowledged)
        #expect(error.isTransient)
        #expect(error.description.contains("no acknowledge"))
        #expect(!error.description.contains("is I2C enabled"))
    }

    /// Opening the node is where a missing bus shows; that mapping stays.
    @Test func aMissingNodeIsStillAMissingBus() {
        let error = I2CError(transferErrno: Errno.noSuchFileOrDirectory, bus: "/dev/i2c-9", address: 0x39)
        #expect(error.kind == .busMissing)
    }
}
