/// The browser's command line as the kiosk runs it: the user's, with the DevTools pipe and a
/// profile of its own added unless the user gave them.
public enum BrowserCommand {
    public static let pipeFlag = "--remote-debugging-pipe"
    static let profileFlag = "--user-data-dir"

    /// `words` (the browser first) with `--remote-debugging-pipe` and `--user-data-dir=PROFILE`
    /// put right after the program, each unless already there.
    public static func arguments(_ words: [String], profile: String) -> [String] {
        guard let program = words.first else { return [] }
        let given = words.dropFirst()
        var added: [String] = []
        if !given.contains(pipeFlag) { added.append(pipeFlag) }
        if userDataDirectory(in: words) == nil { added.append(profileFlag + "=" + profile) }
        return [program] + added + given
    }

    /// The profile the arguments name, in either spelling (`--user-data-dir=X`,
    /// `--user-data-dir X`).
    public static func userDataDirectory(in words: [String]) -> String? {
        for (index, word) in words.enumerated().dropFirst() {
            if word.hasPrefix(profileFlag + "=") { return String(word.dropFirst(profileFlag.count + 1)) }
            if word == profileFlag, index + 1 < words.count { return words[index + 1] }
        }
        return nil
    }

    /// Where the kiosk keeps the browser's profile when neither the arguments nor the
    /// configuration say: `$XDG_STATE_HOME/ambience/kiosk-browser`, else
    /// `$HOME/.local/state/ambience/kiosk-browser`, else under /tmp for the user id. A profile of
    /// its own, so that a browser already running on the user's profile does not take the
    /// command over (and the pipe with it); kept across boots, so logins to the dashboard stay.
    public static func defaultProfile(stateHome: String?, home: String?, userID: UInt32) -> String {
        if let stateHome, stateHome.hasPrefix("/") { return stateHome + "/ambience/kiosk-browser" }
        if let home, home.hasPrefix("/"), home != "/" { return home + "/.local/state/ambience/kiosk-browser" }
        return "/tmp/ambience-kiosk-\(userID)/browser"
    }
}
