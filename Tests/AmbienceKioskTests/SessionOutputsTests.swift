import AmbienceCore
import AmbienceKiosk
import Testing

/// What the kiosk does with a Wayland session's outputs, line by line and measure by measure.
struct SessionOutputsTests {
    @Test func linesThatAskNothingAreLeftAlone() {
        var outputs = SessionOutputs()
        #expect(outputs.line(display: .on, asked: nil).isEmpty)
        #expect(outputs.line(display: nil, asked: nil).isEmpty)
        #expect(outputs.measured(.off).isEmpty)
    }

    @Test func aNewRequestIsSetAndWhatTheCompositorSaysIsReported() {
        var outputs = SessionOutputs()
        // The first line: nothing measured yet, so the request is carried out.
        #expect(outputs.line(display: .on, asked: .on) == [.set(.on)])
        #expect(outputs.measured(.on) == [.report(.on)])
        #expect(outputs.measured(.on).isEmpty)
        // The room goes dark.
        #expect(outputs.line(display: .off, asked: .off) == [.set(.off)])
        #expect(outputs.measured(.off) == [.report(.off)])
        #expect(outputs.line(display: .off, asked: .off).isEmpty)
        #expect(outputs.measured(.off).isEmpty)
    }

    @Test func aStandingRequestIsNotSetAgainWhenSomethingElseBlanks() {
        var outputs = SessionOutputs()
        _ = outputs.line(display: .on, asked: .on)
        _ = outputs.measured(.on)
        // swayidle turns them off: told, not undone, even as later lines still ask on.
        #expect(outputs.measured(.off) == [.report(.off)])
        #expect(outputs.line(display: .off, asked: .on).isEmpty)
        #expect(outputs.line(display: .off, asked: .on).isEmpty)
        #expect(outputs.measured(.off).isEmpty)
    }

    @Test func theDaemonAskingAgainIsSetAgain() {
        var outputs = SessionOutputs()
        _ = outputs.line(display: .off, asked: .off)
        _ = outputs.measured(.off)
        // A monitor reconnects: told; the daemon puts it back once (its line says off, as asked,
        // having forgotten the report).
        #expect(outputs.measured(.on) == [.report(.on)])
        #expect(outputs.line(display: .off, asked: .off) == [.set(.off)])
        #expect(outputs.measured(.off) == [.report(.off)])
        // Again on; the daemon gives up and asks on: nothing to do.
        #expect(outputs.measured(.on) == [.report(.on)])
        #expect(outputs.line(display: .on, asked: .on).isEmpty)
    }

    @Test func outputsThatCannotBeAskedAreNotReportedAndTheRequestIsTriedAtEachLine() {
        var outputs = SessionOutputs()
        #expect(outputs.line(display: .on, asked: .off) == [.set(.off)])
        #expect(outputs.measured(nil).isEmpty)
        #expect(outputs.line(display: .off, asked: .off) == [.set(.off)])
    }
}
