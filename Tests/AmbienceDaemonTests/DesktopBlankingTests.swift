import AmbienceDaemon
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct DesktopBlankingTests {
    @Test func raspiConfigsSwayidleLineIsFoundWithItsLine() {
        let autostart = """
            /usr/bin/lwrespawn /usr/bin/pcmanfm --desktop --profile LXDE-pi &
            /usr/bin/lwrespawn /usr/bin/wf-panel-pi &
            swayidle -w timeout 600 'wlopm --off \\*' resume 'wlopm --on \\*' &
            # swayidle -w timeout 60 'wlopm --off \\*' &
            """
        let found = DesktopBlanking.findings(in: autostart, file: "/etc/xdg/labwc/autostart")
        #expect(found.map(\.line) == [3])
        #expect(
            found.first?.description.hasPrefix("/etc/xdg/labwc/autostart:3: swayidle -w timeout 600") == true)
        // swayidle without a timeout (only a lock before sleep) blanks nothing.
        #expect(DesktopBlanking.findings(in: "swayidle -w before-sleep 'swaylock'", file: "a").isEmpty)
    }

    @Test func wayfiresDpmsTimeoutCountsInItsIdleSectionAndAboveZero() {
        let ini = "[core]\ndpms_timeout = 300\n[idle]\nscreensaver_timeout = -1\ndpms_timeout = 600\n"
        #expect(DesktopBlanking.findings(in: ini, file: "w.ini").map(\.line) == [5])
        #expect(DesktopBlanking.findings(in: "[idle]\ndpms_timeout = -1\n", file: "w.ini").isEmpty)
        #expect(DesktopBlanking.findings(in: "[idle]\ndpms_timeout=0\n", file: "w.ini").isEmpty)
    }

    @Test func everyHomeIsLookedInAndTheAdviceNamesTheWayOut() throws {
        let root = TemporaryDirectory()
        for directory in ["/home", "/home/pi", "/home/pi/.config", "/home/pi/.config/labwc", "/home/kiosk"] {
            try FileSystem.makeDirectory(root.path + directory, mode: 0o755)
        }
        let file = try FileDescriptor.open(
            root.path + "/home/pi/.config/labwc/autostart", O_WRONLY | O_CREAT, mode: 0o644)
        try file.writeAll("swayidle -w timeout 300 'wlopm --off \\*' resume 'wlopm --on \\*' &\n")
        file.close()
        let found = DesktopBlanking.look(root: root.path)
        #expect(found.map(\.file) == ["/home/pi/.config/labwc/autostart"])
        let advice = DesktopBlanking.advice(found).joined(separator: "\n")
        #expect(advice.contains("/home/pi/.config/labwc/autostart:1: swayidle"))
        #expect(advice.contains("Screen") && advice.contains("touch = false"))
        #expect(DesktopBlanking.advice([]).isEmpty)
        let session = DesktopBlanking.advice(found, session: true).joined(separator: "\n")
        #expect(session.contains("Both switch the same outputs") && !advice.contains("Both switch"))
    }
}
