extension TOMLTable {
    /// Parses TOML 1.0, except dates and times and arrays of tables (`[[x]]`), which are
    /// rejected with a message saying so. Strict where TOML is strict: duplicate keys, tables
    /// defined twice, integers beyond 64 bits and malformed text are errors, never guesses.
    /// Never traps, whatever the input, so that it can be fuzzed.
    public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        try parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) throws(TOMLError) -> TOMLTable {
        var parser = Parser(bytes: bytes)
        return try parser.document()
    }
}

/// Reads the bytes once, front to back, tracking the line for every value it produces.
struct Parser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// Kept up to date as the index moves, so that asking for a position costs nothing
    /// however long the line (a fuzzer's million-byte line must not make parsing quadratic).
    private var column = 1
    private let root: TableBuilder
    private var section: TableBuilder
    private var sectionPath: [String] = []
    /// Tables that dotted keys reached in the current section; closed when the section ends.
    private var reachedByDottedKeys: [TableBuilder] = []

    /// Arrays and inline tables deeper than this are refused rather than risking the stack.
    static let maximumNesting = 64

    init(bytes: [UInt8]) {
        self.bytes = bytes
        root = TableBuilder(origin: .header, position: TOMLPosition(line: 1, column: 1), depth: 0)
        section = root
    }

    mutating func document() throws(TOMLError) -> TOMLTable {
        try validateUTF8()
        while true {
            skipWhitespace()
            guard let byte = peek() else { break }
            switch byte {
            case ASCII.hash: try skipComment()
            case ASCII.newline, ASCII.carriageReturn: try newline()
            case ASCII.openBracket:
                try header()
                try endOfLine()
            default:
                try keyValue()
                try endOfLine()
            }
        }
        return root.built()
    }

    // MARK: Structure

    private mutating func keyValue() throws(TOMLError) {
        let (key, value) = try keyAndValue(depth: 0)
        try insert(value, at: key, into: section, path: sectionPath, inSection: true)
    }

    /// `key = value`, in a table or an inline table.
    private mutating func keyAndValue(depth: Int) throws(TOMLError) -> ([KeyPart], TableBuilder.Child) {
        let key = try dottedKey()
        skipWhitespace()
        guard peek() == ASCII.equals else {
            throw error("expected '=' after the key \(key.dotted), found \(describeCurrent())")
        }
        advance()
        skipWhitespace()
        return (key, try value(depth: depth))
    }

    private mutating func header() throws(TOMLError) {
        let start = position
        advance()
        if peek() == ASCII.openBracket {
            throw TOMLError("arrays of tables ([[...]]) are not supported", at: start)
        }
        skipWhitespace()
        let key = try dottedKey()
        skipWhitespace()
        guard peek() == ASCII.closeBracket else {
            throw error("expected ']' to end the table header, found \(describeCurrent())")
        }
        advance()

        for table in reachedByDottedKeys { table.closedToRedefinition = true }
        reachedByDottedKeys = []

        var table = root
        for (offset, part) in key.enumerated() {
            let name = key[...offset].dotted
            let isLast = offset == key.count - 1
            switch table[part.name] {
            case .table(let existing):
                if existing.origin == .inlineTable {
                    throw TOMLError(
                        "\(name) is an inline table (line \(existing.position.line)), which cannot be extended",
                        at: part.position)
                }
                if isLast {
                    guard !existing.closedToRedefinition else {
                        throw TOMLError(
                            "table [\(name)] is already defined (line \(existing.position.line))",
                            at: start)
                    }
                    existing.origin = .header
                    existing.position = start
                }
                table = existing
            case .value(let existing):
                throw TOMLError(
                    "\(name) is already \(existing.describedType) (line \(existing.position.line)), not a table",
                    at: part.position)
            case nil:
                table = try table.childTable(part.name, origin: isLast ? .header : .implicit, position: start)
            }
        }
        table.closedToRedefinition = true
        section = table
        sectionPath = key.map { $0.name }
    }

    /// Puts a value at a dotted key, creating the tables along the way as TOML allows.
    private mutating func insert(
        _ child: TableBuilder.Child, at key: [KeyPart], into base: TableBuilder, path: [String],
        inSection: Bool
    ) throws(TOMLError) {
        let fullPath = { (count: Int) in
            (path.map { KeyPart(name: $0, position: key[0].position) } + key.prefix(count)).dotted
        }
        var table = base
        for (offset, part) in key.dropLast().enumerated() {
            switch table[part.name] {
            case .table(let existing):
                if existing.origin == .inlineTable {
                    throw TOMLError(
                        "\(fullPath(offset + 1)) is an inline table (line \(existing.position.line)),"
                            + " which cannot be extended", at: part.position)
                }
                if inSection && existing.closedToRedefinition {
                    throw TOMLError(
                        "table \(fullPath(offset + 1)) was defined on line \(existing.position.line);"
                            + " dotted keys elsewhere cannot add to it", at: part.position)
                }
                table = existing
            case .value(let existing):
                throw TOMLError(
                    "\(fullPath(offset + 1)) is already \(existing.describedType)"
                        + " (line \(existing.position.line)), not a table", at: part.position)
            case nil:
                table = try table.childTable(part.name, origin: .dottedKeys, position: part.position)
            }
            if inSection { reachedByDottedKeys.append(table) }
        }
        guard let last = key.last else { return }
        if let existing = table[last.name] {
            throw TOMLError(
                "duplicate key \(fullPath(key.count)): already defined on line \(existing.position.line)",
                at: last.position)
        }
        table.add(last.name, child)
    }

    private mutating func dottedKey() throws(TOMLError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            skipWhitespace()
            parts.append(try simpleKey())
            skipWhitespace()
            guard peek() == ASCII.dot else { return parts }
            advance()
        }
    }

    private mutating func simpleKey() throws(TOMLError) -> KeyPart {
        let start = position
        switch peek() {
        case ASCII.quote, ASCII.apostrophe:
            if peek(1) == peek(), peek(2) == peek() {
                throw error("a key cannot be a multi-line string")
            }
            let name = peek() == ASCII.quote ? try basicString() : try literalString()
            return KeyPart(name: name, position: start)
        default:
            let name = bytes[index...].prefix(while: ASCII.isBareKey)
            guard !name.isEmpty else {
                throw error("expected a key, found \(describeCurrent())")
            }
            advance(by: name.count)
            return KeyPart(name: String(decoding: name, as: UTF8.self), position: start)
        }
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(TOMLError) -> TableBuilder.Child {
        guard depth < Parser.maximumNesting else {
            throw error("arrays and inline tables are nested more than \(Parser.maximumNesting) deep")
        }
        let start = position
        switch peek() {
        case ASCII.quote:
            let text =
                peek(1) == ASCII.quote && peek(2) == ASCII.quote ? try multiLineString() : try basicString()
            return .value(TOMLValue(.string(text), at: start))
        case ASCII.apostrophe:
            let text =
                peek(1) == ASCII.apostrophe && peek(2) == ASCII.apostrophe
                ? try multiLineString() : try literalString()
            return .value(TOMLValue(.string(text), at: start))
        case ASCII.openBracket:
            return .value(TOMLValue(.array(try array(depth: depth)), at: start))
        case ASCII.openBrace:
            return .table(try inlineTable(depth: depth))
        default:
            return .value(TOMLValue(try scalar(), at: start))
        }
    }

    private mutating func array(depth: Int) throws(TOMLError) -> [TOMLValue] {
        let start = position
        advance()
        var items: [TOMLValue] = []
        while true {
            try skipBlankSpace()
            if peek() == ASCII.closeBracket {
                advance()
                return items
            }
            items.append(try value(depth: depth + 1).value)
            try skipBlankSpace()
            switch peek() {
            case ASCII.comma: advance()
            case ASCII.closeBracket:
                advance()
                return items
            case nil: throw TOMLError("the array is not closed with ']'", at: start)
            default: throw error("expected ',' or ']' in the array, found \(describeCurrent())")
            }
        }
    }

    private mutating func inlineTable(depth: Int) throws(TOMLError) -> TableBuilder {
        let start = position
        advance()
        let table = TableBuilder(origin: .dottedKeys, position: start, depth: depth + 1)
        skipWhitespace()
        if peek() == ASCII.closeBrace {
            advance()
            table.closeAsInline()
            return table
        }
        while true {
            let (key, value) = try keyAndValue(depth: depth + 1)
            try insert(value, at: key, into: table, path: [], inSection: false)
            skipWhitespace()
            switch peek() {
            case ASCII.comma:
                advance()
                skipWhitespace()
                if peek() == ASCII.closeBrace {
                    throw error("a trailing comma is not allowed in an inline table")
                }
            case ASCII.closeBrace:
                advance()
                table.closeAsInline()
                return table
            case ASCII.newline, ASCII.carriageReturn, ASCII.hash:
                throw error("an inline table must be written on one line")
            case nil:
                throw TOMLError("the inline table is not closed with '}'", at: start)
            default:
                throw error("expected ',' or '}' in the inline table, found \(describeCurrent())")
            }
        }
    }

    /// A boolean, number, or the special floats: one unbroken token, classified whole.
    private mutating func scalar() throws(TOMLError) -> TOMLValue.Content {
        let start = position
        let token = bytes[index...].prefix(while: ASCII.isScalarToken)
        guard !token.isEmpty else {
            throw error("expected a value, found \(describeCurrent())")
        }
        advance(by: token.count)
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        guard let first = token.first, ASCII.isDigit(first) || first == ASCII.plus || first == ASCII.minus
        else {
            throw TOMLError("expected a value, found '\(text)' (strings need quotes)", at: start)
        }
        do {
            return try NumberSyntax.parse(token)
        } catch {
            throw TOMLError(error.message, at: start)
        }
    }

    // MARK: Strings

    private mutating func basicString() throws(TOMLError) -> String {
        let start = position
        advance()
        var text: [UInt8] = []
        while true {
            guard let byte = peek(), byte != ASCII.newline, byte != ASCII.carriageReturn else {
                throw TOMLError("the string is not closed with '\"' on its line", at: start)
            }
            switch byte {
            case ASCII.quote:
                advance()
                return String(decoding: text, as: UTF8.self)
            case ASCII.backslash:
                try escape(into: &text)
            default:
                try checkNotControl(byte)
                text.append(byte)
                advance()
            }
        }
    }

    private mutating func literalString() throws(TOMLError) -> String {
        let start = position
        advance()
        var text: [UInt8] = []
        while true {
            guard let byte = peek(), byte != ASCII.newline, byte != ASCII.carriageReturn else {
                throw TOMLError("the string is not closed with \"'\" on its line", at: start)
            }
            if byte == ASCII.apostrophe {
                advance()
                return String(decoding: text, as: UTF8.self)
            }
            try checkNotControl(byte)
            text.append(byte)
            advance()
        }
    }

    /// `"""…"""` (with escapes) or `'''…'''` (without); the delimiter is at the current index.
    private mutating func multiLineString() throws(TOMLError) -> String {
        let start = position
        guard let delimiter = peek() else { throw error("expected a string") }
        let escapes = delimiter == ASCII.quote
        advance(by: 3)
        // A line break right after the opening delimiter is not part of the string.
        if peek() == ASCII.newline || peek() == ASCII.carriageReturn { try newline() }
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw TOMLError("the multi-line string is not closed", at: start)
            }
            switch byte {
            case delimiter:
                let run = bytes[index...].prefix { $0 == delimiter }.count
                if run >= 3 {
                    // Up to two delimiter characters may end the content itself: `""""a"""""`.
                    let extra = min(run - 3, 2)
                    text.append(contentsOf: repeatElement(delimiter, count: extra))
                    advance(by: 3 + extra)
                    return String(decoding: text, as: UTF8.self)
                }
                text.append(contentsOf: repeatElement(delimiter, count: run))
                advance(by: run)
            case ASCII.newline, ASCII.carriageReturn:
                try newline()
                text.append(ASCII.newline)
            case ASCII.backslash where escapes:
                if let next = peek(1),
                    ASCII.isWhitespace(next) || next == ASCII.newline
                        || next == ASCII.carriageReturn
                {
                    try skipLineEndingBackslash()
                } else {
                    try escape(into: &text)
                }
            default:
                try checkNotControl(byte)
                text.append(byte)
                advance()
            }
        }
    }

    /// A backslash that ends a line in a `"""` string swallows the break and the blank space after.
    private mutating func skipLineEndingBackslash() throws(TOMLError) {
        advance()
        skipWhitespace()
        guard peek() == ASCII.newline || peek() == ASCII.carriageReturn else {
            throw error("a backslash followed by spaces must end the line (found \(describeCurrent()))")
        }
        while let byte = peek() {
            if ASCII.isWhitespace(byte) {
                advance()
            } else if byte == ASCII.newline || byte == ASCII.carriageReturn {
                try newline()
            } else {
                break
            }
        }
    }

    private mutating func escape(into text: inout [UInt8]) throws(TOMLError) {
        let start = position
        advance()
        guard let letter = peek() else { throw TOMLError("the escape sequence is incomplete", at: start) }
        advance()
        let simple: UInt8? =
            switch letter {
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "t"): 0x09
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "r"): 0x0D
            case ASCII.quote: ASCII.quote
            case ASCII.backslash: ASCII.backslash
            default: nil
            }
        if let simple {
            text.append(simple)
            return
        }
        let digitCount: Int
        switch letter {
        case UInt8(ascii: "u"): digitCount = 4
        case UInt8(ascii: "U"): digitCount = 8
        default:
            throw TOMLError(
                "\\\(describe(letter, quoted: false)) is not an escape sequence TOML knows", at: start)
        }
        var code: UInt32 = 0
        for _ in 0..<digitCount {
            guard let byte = peek(), let digit = ASCII.hexValue(byte) else {
                throw TOMLError(
                    "\\\(Character(Unicode.Scalar(letter))) needs \(digitCount) hexadecimal digits", at: start
                )
            }
            code = code << 4 | UInt32(digit)
            advance()
        }
        guard let scalar = Unicode.Scalar(code) else {
            throw TOMLError(
                "U+\(String(code, radix: 16, uppercase: true)) is not a Unicode scalar value", at: start)
        }
        text.append(contentsOf: String(Character(scalar)).utf8)
    }

    private func checkNotControl(_ byte: UInt8) throws(TOMLError) {
        if ASCII.isControl(byte) {
            throw error("control character \(ASCII.codePoint(UInt32(byte))) must be escaped in a string")
        }
    }

    // MARK: Blank space, comments, line ends

    private mutating func skipWhitespace() {
        while let byte = peek(), ASCII.isWhitespace(byte) { advance() }
    }

    /// Whitespace, comments and line breaks, as allowed between the values of an array.
    private mutating func skipBlankSpace() throws(TOMLError) {
        while let byte = peek() {
            if ASCII.isWhitespace(byte) {
                advance()
            } else if byte == ASCII.hash {
                try skipComment()
            } else if byte == ASCII.newline || byte == ASCII.carriageReturn {
                try newline()
            } else {
                return
            }
        }
    }

    /// Up to (not including) the line break.
    private mutating func skipComment() throws(TOMLError) {
        advance()
        while let byte = peek(), byte != ASCII.newline, byte != ASCII.carriageReturn {
            if ASCII.isControl(byte) {
                throw error("control character \(ASCII.codePoint(UInt32(byte))) is not allowed in a comment")
            }
            advance()
        }
    }

    private mutating func newline() throws(TOMLError) {
        if peek() == ASCII.carriageReturn {
            guard peek(1) == ASCII.newline else {
                throw error("a carriage return must be followed by a line feed")
            }
            advance()
        }
        guard peek() == ASCII.newline else {
            throw error("expected the end of the line, found \(describeCurrent())")
        }
        advance()
        line += 1
        column = 1
    }

    private mutating func endOfLine() throws(TOMLError) {
        skipWhitespace()
        if peek() == ASCII.hash { try skipComment() }
        if peek() != nil { try newline() }
    }

    private func validateUTF8() throws(TOMLError) {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch decoder.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return
            case .error:
                let before = bytes[..<offset]
                let lineStart = (before.lastIndex(of: ASCII.newline) ?? -1) + 1
                let position = TOMLPosition(
                    line: 1 + before.lazy.filter { $0 == ASCII.newline }.count,
                    column: 1 + bytes[lineStart..<offset].lazy.filter { $0 & 0xC0 != 0x80 }.count)
                throw TOMLError("the text is not valid UTF-8", at: position)
            }
        }
    }

    // MARK: Positions

    private func peek(_ offset: Int = 0) -> UInt8? {
        let target = index + offset
        return target >= 0 && target < bytes.count ? bytes[target] : nil
    }

    private mutating func advance() {
        guard index < bytes.count else { return }
        // Columns count characters: UTF-8 continuation bytes do not start one.
        if bytes[index] & 0xC0 != 0x80 { column += 1 }
        index += 1
    }

    private mutating func advance(by count: Int) {
        for _ in 0..<max(0, count) { advance() }
    }

    private var position: TOMLPosition { TOMLPosition(line: line, column: column) }

    private func error(_ message: String) -> TOMLError {
        TOMLError(message, at: position)
    }

    private func describeCurrent() -> String {
        guard let byte = peek() else { return "the end of the file" }
        if byte == ASCII.newline || byte == ASCII.carriageReturn { return "the end of the line" }
        if byte < 0x80 { return describe(byte, quoted: true) }
        var iterator = bytes[index...].makeIterator()
        var decoder = Unicode.UTF8.ForwardParser()
        if case .valid(let encoded) = decoder.parseScalar(from: &iterator) {
            let scalar = Unicode.UTF8.decode(encoded)
            return "'\(Character(scalar))' (\(ASCII.codePoint(scalar.value)))"
        }
        return "an invalid byte"
    }

    private func describe(_ byte: UInt8, quoted: Bool) -> String {
        guard byte > 0x20, byte < 0x7F else { return ASCII.codePoint(UInt32(byte)) }
        let character = String(Character(Unicode.Scalar(byte)))
        return quoted ? "'\(character)'" : character
    }
}
