/// The command line after the subcommand: `--name VALUE`, `--name=VALUE`, `--flag`, positionals.
/// Each command takes what it knows; `finish()` rejects whatever is left, so typos are errors.
struct Arguments {
    private var words: [String]

    init(_ words: [String]) { self.words = words }

    /// The value of `--name VALUE` or `--name=VALUE`, if given.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        for (index, word) in words.enumerated() {
            if word == "--" { break }
            if word == name {
                guard index + 1 < words.count else { throw UsageError("\(name) needs a value") }
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
    mutating func number(_ name: String) throws(UsageError) -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw UsageError("\(name): '\(text)' is not a number")
        }
        return value
    }

    mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    /// The next word that is not an option ("-" counts as a positional: standard input).
    mutating func positional() -> String? {
        guard let index = words.firstIndex(where: { $0 == "-" || !$0.hasPrefix("-") || $0 == "--" }) else {
            return nil
        }
        if words[index] == "--" {
            words.remove(at: index)
            return index < words.count ? words.remove(at: index) : nil
        }
        return words.remove(at: index)
    }

    func finish() throws(UsageError) {
        if let extra = words.first {
            throw UsageError(
                extra.hasPrefix("-") ? "unknown option \(extra)" : "unexpected argument '\(extra)'")
        }
    }
}

struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
