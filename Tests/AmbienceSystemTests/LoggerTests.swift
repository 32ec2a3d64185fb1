import AmbienceSystem
import Testing

@Suite struct LoggerTests {
    final class Lines: @unchecked Sendable {
        var text = ""
    }

    /// journald reads a `<N>` prefix per line: a message of several lines (every fault of a
    /// configuration, a usage text) keeps its priority on each.
    @Test func everyLineOfAMessageCarriesItsPriority() {
        let lines = Lines()
        let logger = Logger(prefixed: true, write: { lines.text += $0 })
        logger.log(.error, "a.toml:3: sensor.bord: unknown key\na.toml:5: timing.dwell: not a number\n")
        logger.log(.warning, "sensor fault")
        #expect(
            lines.text
                == "<3>a.toml:3: sensor.bord: unknown key\n<3>a.toml:5: timing.dwell: not a number\n<3>\n"
                + "<4>sensor fault\n")
    }

    @Test func onATerminalTheMessageIsAsWritten() {
        let lines = Lines()
        let logger = Logger(prefixed: false, write: { lines.text += $0 })
        logger.log(.error, "one\ntwo")
        #expect(lines.text == "one\ntwo\n")
    }
}
