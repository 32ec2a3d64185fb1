import AmbienceCore
import Testing

@testable import AmbienceClient

@Suite struct StateFollowerTests {
    let json = [
        #"{"event":"current","state":"regular","previous":null,"animated":false,"reason":"startup","lux":120.5,"filtered":118,"time":"2026-11-29T21:00:00.123Z"}"#,
        #"{"event":"fault","state":"regular","previous":null,"animated":false,"reason":null,"lux":null,"filtered":118,"time":"2026-11-29T21:00:05.123Z"}"#,
        #"{"event":"change","state":"invert","previous":"regular","animated":true,"reason":"light","lux":3.2,"filtered":4.1,"time":"2026-11-29T21:00:09.000Z"}"#,
    ]

    @Test func followsJSONLinesSplitAnywhere() {
        var follower = StateFollower()
        let bytes = Array((json.joined(separator: "\n") + "\n").utf8)
        var updates: [StateFollower.Update] = []
        // One byte per read: the worst a pipe can do.
        for byte in bytes { if let update = follower.consume([byte]) { updates.append(update) } }
        #expect(
            updates == [
                .init(state: .regular, previous: nil, lux: "120.5"),
                .init(state: .invert, previous: .regular, lux: "3.2"),
            ])
    }

    @Test func aBatchActsOnlyOnItsNewestStateAndRepeatsAreNotChanges() {
        var follower = StateFollower()
        #expect(
            follower.consume(Array("invert\nregular\ncontrast\n".utf8))
                == .init(state: .contrast, previous: nil, lux: nil))
        #expect(follower.consume(Array("contrast\n".utf8)) == nil)
        #expect(follower.consume(Array("garbage\n{\"event\":\"change\"\n".utf8)) == nil)
        #expect(
            follower.consume(Array("regular\n".utf8)) == .init(state: .regular, previous: .contrast, lux: nil)
        )
    }

    @Test func theDisplayOfTheNewestLineIsTakenOncePerBatchStateChangedOrNot() {
        var follower = StateFollower()
        _ = follower.consume(Array((json[0] + "\n").utf8))
        #expect(follower.takeDisplay() == .init(power: nil, asked: nil))
        #expect(follower.takeDisplay() == nil)
        let asleep = #"{"event":"current","state":"regular","display":"on","display_asked":"off"}"#
        let slept = #"{"event":"current","state":"regular","display":"off","display_asked":"off"}"#
        #expect(follower.consume(Array((asleep + "\n" + slept + "\n").utf8)) == nil)
        #expect(follower.takeDisplay() == .init(power: .off, asked: .off))
        // A fault line says nothing of the display.
        _ = follower.consume(Array((json[1] + "\n").utf8))
        #expect(follower.takeDisplay() == nil)
    }

    @Test func theWhiteIsTakenWhenTheNewestLineSaysAnother() {
        var follower = StateFollower()
        let warm = #"{"event":"current","state":"regular","cct":2700,"whitepoint":4000}"#
        let warmer = #"{"event":"current","state":"regular","cct":2700,"whitepoint":3984}"#
        _ = follower.consume(Array((warm + "\n").utf8))
        #expect(follower.takeWhite() == .init(kelvin: 4000))
        _ = follower.consume(Array((warm + "\n").utf8))
        #expect(follower.takeWhite() == nil, "the same white again")
        _ = follower.consume(Array((warm + "\n" + warmer + "\n").utf8))
        #expect(follower.takeWhite() == .init(kelvin: 3984))
        // A daemon that lost its [whitepoint]: the pages go back to their own white.
        _ = follower.consume(Array((#"{"event":"current","state":"regular"}"# + "\n").utf8))
        #expect(follower.takeWhite() == .init(kelvin: nil))
    }

    @Test func aPartialLineIsDroppedWhenTheWriterGoes() {
        var follower = StateFollower()
        #expect(follower.consume(Array("inv".utf8)) == nil)
        follower.disconnected()
        #expect(
            follower.consume(Array("ert\nregular\n".utf8)) == .init(state: .regular, previous: nil, lux: nil))
    }
}
