import AmbienceCore
import Testing

struct SampleScheduleTests {
    @Test func slotsAreOnTheMillisecondGridFromTheStart() {
        var schedule = SampleSchedule(interval: 0.1, start: 12.3454)
        var times: [Double] = []
        for _ in 0..<1000 {
            times.append(schedule.due)
            schedule.advance(after: schedule.due + 0.0004)
        }
        #expect(times.first == 12.346)
        for (index, time) in times.enumerated() {
            #expect(time == Double(12_346 + 100 * index) / 1000, "slot \(index)")
        }
    }

    @Test func aMeasurementBegunLateIsStampedWithItsSlotUpToHalfAnInterval() {
        let schedule = SampleSchedule(interval: 0.5, start: 100)
        #expect(schedule.stamp(beganAt: 100) == 100)
        #expect(schedule.stamp(beganAt: 100.0007) == 100)
        #expect(schedule.stamp(beganAt: 100.249) == 100)
        // A stall: the slot would misdate the light.
        #expect(schedule.stamp(beganAt: 100.2503) == 100.251)
    }

    @Test func aSlowSampleSkipsSlotsAndARestartBeginsAnew() {
        var schedule = SampleSchedule(interval: 0.5, start: 0)
        schedule.advance(after: 1.2)
        #expect(schedule.due == 1.5)
        schedule.advance(after: 1.5)
        #expect(schedule.due == 2)
        schedule.restart(interval: 2, at: 2.0004)
        #expect(schedule.due == 2.001)
        schedule.advance(after: 2.001)
        #expect(schedule.due == 4.001)
    }
}
