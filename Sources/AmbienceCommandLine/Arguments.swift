import AmbienceSystem

/// A command line after the command's name: `--name VALUE`, `--name=VALUE`, `--flag`, operands,
/// and `--`, after which every word is an operand. Each command takes what it knows; `finish()`
/// rejects whatever is left, so a typo is a usage error and not a silently ignored word.
public struct Arguments: Sendable {
    private var words: [String]
    /// Another program's command line (`ambience kiosk -- BROWSER …`): the words from the first
    /// operand on, or after `--`, when the command declares `Command.passesCommand`.
    public private(set) var command: [String] = []

    public init(_ words: [String]) { self.words = words }

    /// Splits off another program's command line: it starts at `--` (dropped) or at the first
    /// word that is neither an option nor the value of one of `valueOptions`.
    public init(_ words: [String], commandAfter valueOptions: [String]) {
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--" {
                self.words = Array(words[..<index])
                command = Array(words[(index + 1)...])
                return
            }
            if !word.hasPrefix("-") || word == "-" { break }
            index += valueOptions.contains(word) ? 2 : 1
        }
        index = min(index, words.count)
        self.words = Array(words[..<index])
        command = Array(words[index...])
    }

    /// The value of `--name VALUE` or `--name=VALUE`, if given.
    public mutating func option(_ name: String) throws(CommandFailure) -> String? {
        for (index, word) in words.enumerated() {
            if word == "--" { break }
            if word == name {
                guard index + 1 < words.count else { throw CommandFailure.usage("\(name) needs a value") }
                let value = words[index + 1]
                words.removeSubrange(index...index + 1)
                return value
            }
            if word.hasPrefix(name + "=") {
                words.remove(at: index)
                return String(word.dropFirst(name.count + 1))
            }
        }
        return nil
    }

    /// A number of seconds, lux, … given as `--name VALUE`.
    public mutating func number(_ name: String) throws(CommandFailure) -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw CommandFailure.usage("\(name): '\(text)' is not a number")
        }
        return value
    }

    /// Whether `--name` is given (before any `--`).
    public mutating func flag(_ name: String) -> Bool {
        guard let index = words.prefix(while: { $0 != "--" }).firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    /// The next word that is not an option ("-" counts as an operand: standard input).
    public mutating func positional() -> String? {
        guard let index = words.firstIndex(where: { $0 == "-" || !$0.hasPrefix("-") || $0 == "--" }) else {
            return nil
        }
        if words[index] == "--" {
            words.remove(at: index)
            return index < words.count ? words.remove(at: index) : nil
        }
        return words.remove(at: index)
    }

    /// Rejects the first word no one took.
    public func finish() throws(CommandFailure) {
        if let extra = words.first {
            throw CommandFailure.usage(
                extra.hasPrefix("-") ? "unknown option '\(extra)'" : "unexpected argument '\(extra)'")
        }
    }
}

extension Arguments {
    /// The words the program was started with, after its own name, as the kernel keeps them
    /// (/proc/self/cmdline, each word ended by a NUL). Embedded Swift has no `CommandLine`; both
    /// builds read them so.
    public static var programWords: [String] {
        guard let bytes = try? FileSystem.contents(of: "/proc/self/cmdline", limit: 1 << 22) else {
            return []
        }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().dropFirst().map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}
