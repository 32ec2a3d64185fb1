import AmbienceCore
import Testing

struct TouchContactsTests {
    typealias Event = (type: UInt16, code: UInt16, value: Int32)
    static let report: Event = (0, 0, 0)
    static func button(_ down: Bool) -> Event { (1, 0x14A, down ? 1 : 0) }
    static func slot(_ number: Int32) -> Event { (3, 0x2F, number) }
    static func tracking(_ id: Int32) -> Event { (3, 0x39, id) }
    static let x: Event = (3, 0x35, 400)

    /// The frames' results: whether each frame began a touch, and whether a finger was down after it.
    func frames(_ events: [Event]) -> [(began: Bool, touching: Bool)] {
        var contacts = TouchContacts()
        var results: [(Bool, Bool)] = []
        for event in events {
            let began = contacts.take(type: event.type, code: event.code, value: event.value)
            if event.type == 0 && event.code == 0 { results.append((began, contacts.isTouching)) }
        }
        return results
    }

    @Test func aSingleTouchTapBeginsOnceAndLifts() {
        let result = frames([
            Self.button(true), Self.x, Self.report, Self.x, Self.report, Self.button(false), Self.report,
        ])
        #expect(result.map(\.began) == [true, false, false])
        #expect(result.map(\.touching) == [true, true, false])
    }

    @Test func twoFingersLiftOnlyWhenBothAreUp() {
        let result = frames([
            Self.slot(0), Self.tracking(5), Self.report,  // one finger
            Self.slot(1), Self.tracking(6), Self.report,  // a second
            Self.slot(0), Self.tracking(-1), Self.report,  // the first lifts
            Self.slot(1), Self.tracking(-1), Self.report,  // the second
            Self.slot(0), Self.tracking(7), Self.report,  // a new touch
        ])
        #expect(result.map(\.began) == [true, false, false, false, true])
        #expect(result.map(\.touching) == [true, true, true, false, true])
    }

    @Test func lostEventsForgetEveryContact() {
        var contacts = TouchContacts()
        for event in [Self.button(true), Self.report] {
            _ = contacts.take(type: event.type, code: event.code, value: event.value)
        }
        #expect(contacts.isTouching)
        _ = contacts.take(type: 0, code: 3, value: 0)  // SYN_DROPPED
        #expect(!contacts.isTouching)
    }
}
