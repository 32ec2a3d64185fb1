import AmbienceRecord
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

    @Test func aReadingIsStampedWithTheLastSlotAtOrBeforeIt() {
        let schedule = SampleSchedule(interval: 0.1, start: 100)
        #expect(schedule.stamp(completedAt: 100) == 100)
        #expect(schedule.stamp(completedAt: 100.0301) == 100)
        #expect(schedule.stamp(completedAt: 100.0999) == 100)
        // A long measurement: the slot it ended in, not the one it began in.
        #expect(schedule.stamp(completedAt: 101.05) == 101)
        // 100 + 3 × 0.1 is 100.30000000000001 in binary; the slot is 100.3 on the grid.
        #expect(schedule.stamp(completedAt: 100.3) == 100.3)
        #expect(schedule.stamp(completedAt: 100.2999) == 100.2)
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
