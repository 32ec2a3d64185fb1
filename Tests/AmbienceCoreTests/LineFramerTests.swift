import AmbienceCore
import Testing

/// The one place the pipe protocol's framing is tested: every reader of event lines frames them
/// with `LineFramer`.
@Suite struct LineFramerTests {
    func text(_ lines: [[UInt8]]) -> [String] { lines.map { String(decoding: $0, as: UTF8.self) } }

    @Test func wholeLinesInOrderWithoutTheirNewline() {
        var framer = LineFramer()
        #expect(
            text(framer.push(Array("invert\nregular\n\ncontrast\n".utf8))) == [
                "invert", "regular", "", "contrast",
            ])
        #expect(framer.skipped == 0)
    }

    @Test func aLineSplitAcrossReadsIsPutBackTogether() {
        var framer = LineFramer()
        let bytes = Array(#"{"event":"current","state":"regular"}"#.utf8) + [0x0A] + Array("inv".utf8)
        // One byte per read: the worst a pipe can do.
        var lines: [[UInt8]] = []
        for byte in bytes { lines += framer.push([byte]) }
        #expect(text(lines) == [#"{"event":"current","state":"regular"}"#])
        #expect(text(framer.push(Array("ert\n".utf8))) == ["invert"])
    }

    @Test func anOverlongLineIsSkippedWholeAndCounted() {
        var framer = LineFramer()
        let long =
            "{\"event\":\"change\",\"state\":\"invert\",\"x\":\"" + String(repeating: "x", count: 5000)
            + "\"}\n"
        #expect(framer.push(Array(long.utf8)).isEmpty)
        #expect(text(framer.push(Array("{\"event\":\"change\",\"state\":\"invert\"}\n".utf8))).count == 1)
        // Split across reads too, and with good lines on either side in the same read.
        let bytes = Array(("regular\n" + long + long + "contrast\n").utf8)
        var lines: [[UInt8]] = []
        for start in stride(from: 0, to: bytes.count, by: 1000) {
            lines += framer.push(bytes[start..<min(start + 1000, bytes.count)])
        }
        #expect(text(lines) == ["regular", "contrast"])
        #expect(framer.skipped == 3)
        let first = framer.takeSkipped()
        let second = framer.takeSkipped()
        #expect(first == 3)
        #expect(second == 0)
    }

    @Test func theLimitCountsTheNewline() {
        #expect(LineFramer.limit == 4096)
        var framer = LineFramer()
        let longest = [UInt8](repeating: UInt8(ascii: "a"), count: LineFramer.limit - 1)
        #expect(framer.push(longest + [0x0A]) == [longest])
        #expect(framer.push(longest + [UInt8(ascii: "a"), 0x0A]).isEmpty)
        let skipped = framer.takeSkipped()
        #expect(skipped == 1)
        var small = LineFramer(limit: 4)
        #expect(text(small.push(Array("abc\nabcd\nab\n".utf8))) == ["abc", "ab"])
        #expect(small.skipped == 1)
    }

    @Test func aFinalLineWithoutNewlineIsDroppedAtClose() {
        var framer = LineFramer()
        #expect(framer.push(Array("regular\ninv".utf8)).count == 1)
        let dropped = framer.close()
        #expect(dropped)
        // What the next writer sends starts a new line.
        #expect(text(framer.push(Array("ert\ncontrast\n".utf8))) == ["ert", "contrast"])
        let droppedAgain = framer.close()
        #expect(!droppedAgain)
    }

    @Test func anOverlongLineUnfinishedAtCloseCountsAsSkipped() {
        var framer = LineFramer(limit: 8)
        #expect(framer.push(Array("0123456789".utf8)).isEmpty)
        let dropped = framer.close()
        let skipped = framer.takeSkipped()
        #expect(dropped)
        #expect(skipped == 1)
        #expect(text(framer.push(Array("ok\n".utf8))) == ["ok"])
    }
}
