import AmbienceSystem

/// The desktop's own screen blanking, which `[display]` must be told apart from
/// (docs/display-sleep.md, "The desktop's own blanking"): Raspberry Pi OS's labwc session starts
/// `swayidle` from its autostart file when raspi-config's Screen Blanking is on, and wayfire has
/// `dpms_timeout` in its `[idle]` section. Either turns the outputs off after a time without
/// input, whatever the room, and back on at the next input the compositor sees.
public enum DesktopBlanking {
    /// Where a desktop sets its blanking: the system's files and each user's.
    public static let systemFiles = ["/etc/xdg/labwc/autostart", "/etc/wayfire/defaults.ini"]
    public static let userFiles = [".config/labwc/autostart", ".config/wayfire.ini"]

    public struct Finding: Equatable, Sendable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var text: String

        public var description: String { "\(file):\(line): \(text)" }
    }

    /// The lines of `text` (a labwc autostart or a wayfire ini file) that blank the screen.
    public static func findings(in text: String, file: String) -> [Finding] {
        var found: [Finding] = []
        var section = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("#") || line.hasPrefix(";") || line.isEmpty { continue }
            if line.hasPrefix("[") {
                section = String(line.dropFirst().prefix { $0 != "]" })
                continue
            }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.first == "swayidle", words.contains("timeout") {
                found.append(Finding(file: file, line: index + 1, text: String(line)))
            } else if section == "idle", let (key, value) = setting(line), key == "dpms_timeout",
                let seconds = Int(value), seconds > 0
            {
                found.append(Finding(file: file, line: index + 1, text: String(line)))
            }
        }
        return found
    }

    /// Every finding on this system, in the system's files and in each home under /home.
    public static func look(root: String = "") -> [Finding] {
        var files = systemFiles
        let homes = (try? FileSystem.entries(of: root + "/home").sorted()) ?? []
        for home in homes { files += userFiles.map { "/home/" + home + "/" + $0 } }
        return files.flatMap { file -> [Finding] in
            guard let bytes = try? FileSystem.contents(of: root + file, limit: 1 << 16) else { return [] }
            return findings(in: String(decoding: bytes, as: UTF8.self), file: file)
        }
    }

    /// What `ambience check` says of the findings, as comments: how the two work together, on a
    /// panel's own power or, for `device = "wayland"`, on the same outputs.
    public static func advice(_ findings: [Finding], session: Bool = false) -> [String] {
        guard !findings.isEmpty else { return [] }
        let together =
            session
            ? [
                "# Both switch the same outputs: the desktop's blanking turns them off, the lines say so, and",
                "# the kiosk does not undo it; the room's next change (dark, light) is carried out over it.",
            ]
            : ["# Both then decide: the screen shows only while both say on."]
        return
            ["", "# [display]: the desktop blanks the screen itself after a time without input:"]
            + findings.map { "#   \($0)" } + together
            + [
                "# A touch that wakes a display the daemon put to sleep is swallowed, so the desktop does not",
                "# see it and may keep its outputs off: turn the desktop's blanking off (raspi-config: Display",
                "# Options, Screen Blanking) to let the room decide, or set [display] touch = false to let the",
                "# desktop see every touch (docs/display-sleep.md).",
            ]
    }

    private static func setting(_ line: Substring) -> (String, String)? {
        guard let equals = line.firstIndex(of: "=") else { return nil }
        let key = line[..<equals].trimmingSpaces
        let value = line[line.index(after: equals)...].trimmingSpaces
        return (key, value)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
