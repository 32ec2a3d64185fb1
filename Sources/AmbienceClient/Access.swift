import AmbienceSystem

/// Messages for the commands that use the daemon's files on their user's behalf.
public enum Access {
    /// Who may read (or write) `path`, for a command refused it on its user's behalf: a file its
    /// group may use is for that group, which the user can join; one only its owner may use is
    /// for that user and root (`onlyOwner` says what else to do). From the file's mode, owner
    /// and group; nil when even those cannot be seen.
    public static func hint(_ path: String, writing: Bool, onlyOwner: String = "use sudo") -> String? {
        guard let status = try? FileSystem.status(of: path) else { return nil }
        let group = FileSystem.groupName(of: status.group) ?? String(status.group)
        let owner = FileSystem.userName(of: status.owner) ?? String(status.owner)
        let mode = "0o" + String(status.mode & 0o777, radix: 8)
        if status.mode & (writing ? 0o020 : 0o040) != 0 {
            return "it is for the group \(group) (mode \(mode)): join it "
                + "(sudo usermod -aG \(group) $USER) and log in again"
        }
        let verb = writing ? "write" : "read"
        return "only \(owner) and root may \(verb) it (mode \(mode), group \(group)): \(onlyOwner)"
    }
}
