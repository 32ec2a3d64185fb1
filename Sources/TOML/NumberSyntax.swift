/// TOML's integer and float grammar, checked byte by byte, with 64-bit integers whose
/// overflow is an error rather than a trap.
enum NumberSyntax {
    struct Failure: Error {
        var message: String
    }

    /// A token that starts with a digit or a sign (the special floats are handled before).
    static func parse(_ token: ArraySlice<UInt8>) throws(Failure) -> TOMLValue.Content {
        let text = String(decoding: token, as: UTF8.self)
        if looksLikeDateOrTime(token) {
            throw Failure(message: "dates and times are not supported ('\(text)')")
        }
        var rest = token
        let prefixes: [(UInt8, Int64, (UInt8) -> Bool)] = [
            (UInt8(ascii: "x"), 16, { ASCII.hexValue($0) != nil }),
            (UInt8(ascii: "o"), 8, { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7") }),
            (UInt8(ascii: "b"), 2, { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") }),
        ]
        if rest.first == UInt8(ascii: "0"), let marker = rest.dropFirst().first,
            let (_, radix, isDigit) = prefixes.first(where: { $0.0 == marker })
        {
            rest = rest.dropFirst(2)
            let digits = try digitRun(&rest, isDigit: isDigit, in: text)
            guard rest.isEmpty else { throw Failure(message: "'\(text)' is not a valid number") }
            return .integer(try accumulate(digits, radix: radix, negative: false, in: text))
        }

        var negative = false
        if let sign = rest.first, sign == ASCII.plus || sign == ASCII.minus {
            negative = sign == ASCII.minus
            rest = rest.dropFirst()
        }
        let integerDigits = try digitRun(&rest, isDigit: ASCII.isDigit, in: text)
        if integerDigits.count > 1 && integerDigits.first == UInt8(ascii: "0") {
            throw Failure(message: "'\(text)': leading zeros are not allowed")
        }
        var isFloat = false
        if rest.first == ASCII.dot {
            rest = rest.dropFirst()
            _ = try digitRun(&rest, isDigit: ASCII.isDigit, in: text)
            isFloat = true
        }
        if let e = rest.first, e | 0x20 == UInt8(ascii: "e") {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == ASCII.plus || sign == ASCII.minus { rest = rest.dropFirst() }
            _ = try digitRun(&rest, isDigit: ASCII.isDigit, in: text)
            isFloat = true
        }
        guard rest.isEmpty else { throw Failure(message: "'\(text)' is not a valid number") }
        if isFloat {
            let plain = String(decoding: token.filter { $0 != ASCII.underscore }, as: UTF8.self)
            guard let value = Double(plain) else { throw Failure(message: "'\(text)' is not a valid float") }
            return .float(value)
        }
        return .integer(try accumulate(integerDigits, radix: 10, negative: negative, in: text))
    }

    /// Digits, with single underscores allowed between two digits; at least one digit.
    private static func digitRun(
        _ rest: inout ArraySlice<UInt8>, isDigit: (UInt8) -> Bool, in text: String
    ) throws(Failure) -> [UInt8] {
        var digits: [UInt8] = []
        var previousWasDigit = false
        while let byte = rest.first {
            if isDigit(byte) {
                digits.append(byte)
                previousWasDigit = true
            } else if byte == ASCII.underscore {
                guard previousWasDigit, let next = rest.dropFirst().first, isDigit(next) else {
                    throw Failure(message: "'\(text)': an underscore in a number must sit between two digits")
                }
                previousWasDigit = false
            } else {
                break
            }
            rest = rest.dropFirst()
        }
        guard !digits.isEmpty else { throw Failure(message: "'\(text)' is not a valid number") }
        return digits
    }

    /// Builds the value digit by digit, negative numbers downwards so that Int64.min fits.
    private static func accumulate(
        _ digits: [UInt8], radix: Int64, negative: Bool, in text: String
    ) throws(Failure) -> Int64 {
        var value: Int64 = 0
        for byte in digits {
            let digit = Int64(ASCII.hexValue(byte) ?? 0)
            let (shifted, shiftOverflow) = value.multipliedReportingOverflow(by: radix)
            let (next, addOverflow) =
                negative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !shiftOverflow, !addOverflow else {
                throw Failure(message: "'\(text)' does not fit in a 64-bit integer")
            }
            value = next
        }
        return value
    }

    /// `1979-05-27…` or `07:32…`: the start of a date or a time, which this parser does not read.
    private static func looksLikeDateOrTime(_ token: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(token.prefix(5))
        func digits(_ count: Int) -> Bool {
            bytes.count > count && bytes.prefix(count).allSatisfy(ASCII.isDigit)
        }
        return (digits(4) && bytes[4] == ASCII.minus) || (digits(2) && bytes[2] == UInt8(ascii: ":"))
    }
}
