/// Why a text is not a JSON document, and where.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The byte offset of the problem in the UTF-8 text.
    public var offset: Int
    public var message: String

    public var description: String { "JSON at byte \(offset): \(message)" }
}

extension JSONValue {
    /// The deepest nesting accepted: a peer's message cannot exhaust the stack.
    public static let maximumDepth = 64

    /// Parses one JSON document (RFC 8259), surrounding white space allowed.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(JSONError) -> JSONValue {
        var parser = Parser(bytes: Array(bytes))
        let value = try parser.value(depth: 0)
        parser.skipWhiteSpace()
        guard parser.index == parser.bytes.count else { throw parser.error("text after the document") }
        return value
    }

    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        try parse(text.utf8)
    }
}

private struct Parser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func error(_ message: String) -> JSONError {
        JSONError(offset: index, message: message)
    }

    mutating func skipWhiteSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else {
            throw error("nested deeper than \(JSONValue.maximumDepth)")
        }
        skipWhiteSpace()
        guard index < bytes.count else { throw error("a value was expected, the text ended") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return .number(try number())
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected
        else { throw error("unknown literal") }
        index += expected.count
        return value
    }

    mutating func object(depth: Int) throws(JSONError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhiteSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("a key was expected")
            }
            let key = try string()
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("':' was expected")
            }
            index += 1
            members.append((key, try value(depth: depth + 1)))
            skipWhiteSpace()
            guard index < bytes.count else { throw error("the object is not closed") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw error("',' or '}' was expected") }
            index += 1
        }
    }

    mutating func array(depth: Int) throws(JSONError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhiteSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhiteSpace()
            guard index < bytes.count else { throw error("the array is not closed") }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw error("',' or ']' was expected") }
            index += 1
        }
    }

    mutating func string() throws(JSONError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index  // start of the bytes copied as they are
        func flush(_ end: Int) {
            scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("a control character inside a string") }
            if byte == UInt8(ascii: "\\") {
                flush(index)
                index += 1
                scalars.append(try escape())
                run = index
                continue
            }
            index += 1
        }
        throw error("the string is not closed")
    }

    mutating func escape() throws(JSONError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("the string is not closed") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try hexQuad()
            if (0xD800..<0xDC00).contains(first), bytes.count - index >= 6,
                bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            {
                let saved = index
                index += 2
                let second = try hexQuad()
                if (0xDC00..<0xE000).contains(second) {
                    return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
                }
                index = saved
            }
            // A lone surrogate has no scalar: the replacement character stands in, as decoders do.
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        default:
            index -= 1
            throw error("an unknown escape")
        }
    }

    mutating func hexQuad() throws(JSONError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func number() throws(JSONError) -> Double {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            index = start
            throw error("a value was expected")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("digits must follow '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw error("digits must follow the exponent") }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)), number.isFinite
        else {
            throw error("a number out of range")
        }
        return number
    }
}
