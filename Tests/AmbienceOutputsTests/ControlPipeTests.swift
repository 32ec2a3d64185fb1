import AmbienceClient
import AmbienceCore
import AmbienceSystem
import AmbienceTestSupport
import Testing

@testable import AmbienceOutputs

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ControlPipeTests {
    let directory = TemporaryDirectory()
    let log = LogRecorder()

    func write(_ text: String, to path: String) throws {
        let writer = try FileDescriptor.open(path, O_WRONLY | O_NONBLOCK)
        defer { writer.close() }
        try writer.writeAll(text)
    }

    @Test func readsCommandsAndRejectsEverythingElse() throws {
        let path = directory.file("control")
        let control = try ControlPipe(path: path, log: log.log)
        defer { control.close() }
        #expect(control.read().isEmpty)
        try write(
            "override invert\n\noverride dim\noverride regular for 10m\nreboot\noverride invert for 366d\n"
                + "override auto\nbrightness 40 for 2h\nbrightness 140\ndisplay off for 8h\ndisplay dim\n"
                + "display auto\noutputs off\noutputs dim\noutputs on for 1h\nwhitepoint 4500K for 1h\n"
                + "whitepoint 3000\nwhitepoint 900K\nwhitepoint auto\n", to: path)
        let expected: [ControlPipe.Input] = [
            .command(.hold(.invert, duration: nil)),
            .rejected(
                line: "override dim", reason: "unknown state 'dim': use invert, regular, contrast or auto"
            ),
            .command(.hold(.regular, duration: 600)),
            .rejected(
                line: "reboot",
                reason: "expected 'override STATE [for DURATION]', 'override auto',"
                    + " 'brightness PERCENT [for DURATION]', 'brightness auto',"
                    + " 'display on|off [for DURATION]', 'display auto',"
                    + " 'whitepoint KELVIN [for DURATION]' or 'whitepoint auto'"),
            .rejected(
                line: "override invert for 366d",
                reason: "'366d' is longer than the longest override, 365d (a year)"),
            .command(.auto),
            .brightness(.hold(percent: 40, duration: 7200)),
            .rejected(
                line: "brightness 140",
                reason: "'140' is not a brightness: use a whole percent 0 to 100, or auto"),
            .display(.hold(.off, duration: 8 * 3600)),
            .rejected(line: "display dim", reason: "'dim' is not a display power: use on, off or auto"),
            .display(.auto),
            .outputs(.off),
            .rejected(line: "outputs dim", reason: "expected 'outputs on' or 'outputs off'"),
            .rejected(line: "outputs on for 1h", reason: "expected 'outputs on' or 'outputs off'"),
            .whitePoint(.hold(kelvin: 4500, duration: 3600)),
            .whitePoint(.hold(kelvin: 3000, duration: nil)),
            .rejected(
                line: "whitepoint 900K",
                reason: "'900K' is not a white: use whole kelvin 1000 to 15000 (5000K), or auto"),
            .whitePoint(.auto),
        ]
        #expect(control.read() == expected)
        #expect(log.messages.isEmpty)
    }

    @Test func aLineSplitOverWritesIsJoined() throws {
        let path = directory.file("control")
        let control = try ControlPipe(path: path, log: log.log)
        try write("override con", to: path)
        #expect(control.read().isEmpty)
        try write("trast for 90\n", to: path)
        #expect(control.read() == [.command(.hold(.contrast, duration: 90))])
    }

    @Test func anEndlessLineIsRejectedOnceAndTheNextLineStillWorks() throws {
        let path = directory.file("control")
        let control = try ControlPipe(path: path, log: log.log)
        try write(String(repeating: "x", count: 3000), to: path)
        try write(String(repeating: "y", count: 3000) + "\noverride auto\n", to: path)
        let inputs = control.read()
        #expect(inputs.count == 2)
        if case .rejected(_, let reason) = inputs.first {
            #expect(reason.contains("longer than"))
        } else {
            Issue.record("expected a rejected line first, got \(inputs)")
        }
        #expect(inputs.last == .command(.auto))
    }

    @Test func writersComingAndGoingNeverLeaveItReadableForNothing() throws {
        let path = directory.file("control")
        let control = try ControlPipe(path: path, log: log.log)
        try write("override invert\n", to: path)
        #expect(control.read().count == 1)
        // With every writer gone, the read end must not report end-of-file (readable) forever.
        var request = pollfd(fd: control.descriptor!.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&request, 1, 0) == 0)
        #expect(control.read().isEmpty)
    }

    @Test func sendReachesARunningDaemon() throws {
        let path = directory.file("control")
        let control = try ControlPipe(path: path, log: log.log)
        try DaemonControl.send("override contrast for 1h", to: path)
        #expect(control.read() == [.command(.hold(.contrast, duration: 3600))])
    }

    @Test func sendSaysWhenTheDaemonIsNotRunning() throws {
        let path = directory.file("control")
        #expect(throws: DaemonControl.SendError.daemonNotRunning(path: path)) {
            try DaemonControl.send("override auto", to: path)
        }
        var control: ControlPipe? = try ControlPipe(path: path, log: log.log)
        control?.close()
        control = nil
        // The pipe is there, but no one reads it.
        #expect(throws: DaemonControl.SendError.daemonNotRunning(path: path)) {
            try DaemonControl.send("override auto", to: path)
        }
    }

    @Test func refusesARegularFile() throws {
        let path = directory.file("control")
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT, mode: 0o600)
        file.close()
        #expect(throws: OutputError.notAFIFO(path: path, found: "a regular file")) {
            try ControlPipe(path: path, log: log.log)
        }
        #expect(throws: DaemonControl.SendError.notAFIFO(path: path, found: "a regular file")) {
            try DaemonControl.send("override auto", to: path)
        }
    }
}
