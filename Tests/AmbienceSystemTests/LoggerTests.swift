import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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

    func status(device: UInt64, inode: UInt64) -> FileStatus {
        var info = stat()
        info.st_dev = dev_t(device)
        info.st_ino = ino_t(inode)
        return FileStatus(info)
    }

    /// Prefixed only when stderr is the stream $JOURNAL_STREAM names, as systemd connected it.
    @Test func onlyTheJournalsStreamGetsPrefixes() {
        let stderr = status(device: 2049, inode: 73)
        #expect(Logger.isJournal(stream: "2049:73", standardError: stderr))
        // Not run by systemd, or stderr sent elsewhere since (a pipe to less).
        #expect(!Logger.isJournal(stream: nil, standardError: stderr))
        #expect(!Logger.isJournal(stream: "2049:74", standardError: stderr))
        #expect(!Logger.isJournal(stream: "2050:73", standardError: stderr))
        #expect(!Logger.isJournal(stream: "2049:73", standardError: nil))
        for garbage in ["", ":", "2049", "2049:", ":73", "2049:73:1", "0x801:73", "-1:73", "2049: 73"] {
            #expect(!Logger.isJournal(stream: garbage, standardError: stderr), "\(garbage)")
        }
    }
}
