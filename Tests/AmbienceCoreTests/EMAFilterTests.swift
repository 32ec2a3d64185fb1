import AmbienceCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct EMAFilterTests {
    @Test func firstSampleSeeds() {
        var filter = EMAFilter(timeConstant: 2)
        #expect(filter.value == nil)
        #expect(filter.update(time: 10, lux: 42) == 42)
    }

    @Test func oneTimeConstantMovesAbout63Percent() {
        var filter = EMAFilter(timeConstant: 2)
        filter.update(time: 0, lux: 0)
        let value = filter.update(time: 2, lux: 100)
        #expect(abs(value - 100 * (1 - 1 / M_E)) < 1e-9)
    }

    @Test func unevenSpacingGivesTheSameResultAsEvenSpacingOfAConstantInput() {
        // A constant input x approached in one step of 3 s or three steps of 1 s lands at the same value.
        var once = EMAFilter(timeConstant: 1.5)
        var thrice = EMAFilter(timeConstant: 1.5)
        once.update(time: 0, lux: 10)
        thrice.update(time: 0, lux: 10)
        let single = once.update(time: 3, lux: 50)
        thrice.update(time: 1, lux: 50)
        thrice.update(time: 2, lux: 50)
        let triple = thrice.update(time: 3, lux: 50)
        #expect(abs(single - triple) < 1e-9)
    }

    @Test func gapLongerThanFiveTauReseeds() {
        var filter = EMAFilter(timeConstant: 1)
        filter.update(time: 0, lux: 10)
        #expect(filter.update(time: 5, lux: 1000) < 1000)  // exactly 5τ: still filtered
        #expect(filter.update(time: 10.01, lux: 3) == 3)  // more than 5τ: reseeded
    }
}
