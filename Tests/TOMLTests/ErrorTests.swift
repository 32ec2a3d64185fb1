import TOML
import Testing

/// Every way a text is refused, with the line, column and words a user sees.
@Suite struct ErrorTests {
    func failure(_ document: String) -> TOMLError? {
        do {
            _ = try TOMLTable.parse(document)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        arguments: [
            // Structure
            ("a = 1\nb", 2, 2, "expected '=' after the key b, found the end of the file"),
            ("= 1", 1, 1, "expected a key, found '='"),
            ("a = 1 b = 2", 1, 7, "expected the end of the line, found 'b'"),
            ("a = ", 1, 5, "expected a value, found the end of the file"),
            ("a = bare", 1, 5, "expected a value, found 'bare' (strings need quotes)"),
            ("a = True", 1, 5, "expected a value, found 'True' (strings need quotes)"),
            ("a = @", 1, 5, "expected a value, found '@'"),
            ("a = 1\rb = 2", 1, 6, "a carriage return must be followed by a line feed"),
            ("\"\"\"k\"\"\" = 1", 1, 1, "a key cannot be a multi-line string"),
            ("a = é", 1, 5, "expected a value, found 'é' (U+00E9)"),
            // Duplicates and redefinitions
            ("a = 1\na = 2", 2, 1, "duplicate key a: already defined on line 1"),
            ("[t]\nx = 1\nx = 2", 3, 1, "duplicate key t.x: already defined on line 2"),
            ("a = 1\na.b = 2", 2, 1, "a is already an integer (line 1), not a table"),
            ("[a]\n[a]", 2, 1, "table [a] is already defined (line 1)"),
            ("a.b = 1\n[a]", 2, 1, "table [a] is already defined (line 1)"),
            (
                "[a.b]\n[a]\nb.c = 1", 3, 1,
                "table a.b was defined on line 1; dotted keys elsewhere cannot add to it"
            ),
            ("a = 1\n[a]", 2, 2, "a is already an integer (line 1), not a table"),
            ("a = {}\n[a.b]", 2, 2, "a is an inline table (line 1), which cannot be extended"),
            ("a = {x = 1}\na.y = 2", 2, 1, "a is an inline table (line 1), which cannot be extended"),
            ("a = {b = {}, b.c = 1}", 1, 14, "b is an inline table (line 1), which cannot be extended"),
            ("a = {b = 1, b = 2}", 1, 13, "duplicate key b: already defined on line 1"),
            ("[[servers]]", 1, 1, "arrays of tables ([[...]]) are not supported"),
            ("[a", 1, 3, "expected ']' to end the table header, found the end of the file"),
            // Arrays and inline tables
            ("a = [1 2]", 1, 8, "expected ',' or ']' in the array, found '2'"),
            ("a = [1,\n2", 1, 5, "the array is not closed with ']'"),
            ("a = {b = 1,}", 1, 12, "a trailing comma is not allowed in an inline table"),
            ("a = {b = 1\n}", 1, 11, "an inline table must be written on one line"),
            ("a = {b = 1", 1, 5, "the inline table is not closed with '}'"),
            ("a = {b = 1 c = 2}", 1, 12, "expected ',' or '}' in the inline table, found 'c'"),
            // Strings
            ("a = \"open\nb = 1", 1, 5, "the string is not closed with '\"' on its line"),
            ("a = 'open", 1, 5, "the string is not closed with \"'\" on its line"),
            ("a = \"\"\"open\n", 1, 5, "the multi-line string is not closed"),
            ("a = \"\\q\"", 1, 6, "\\q is not an escape sequence TOML knows"),
            ("a = \"\\u12x4\"", 1, 6, "\\u needs 4 hexadecimal digits"),
            ("a = \"\\UD800DC00\"", 1, 6, "U+D800DC00 is not a Unicode scalar value"),
            ("a = \"\\uDFFF\"", 1, 6, "U+DFFF is not a Unicode scalar value"),
            ("a = \"bell\u{07}\"", 1, 10, "control character U+0007 must be escaped in a string"),
            ("a = 'del\u{7F}'", 1, 9, "control character U+007F must be escaped in a string"),
            (
                "a = \"\"\"x \\  y\"\"\"", 1, 13,
                "a backslash followed by spaces must end the line (found 'y')"
            ),
            ("# bell \u{07}", 1, 8, "control character U+0007 is not allowed in a comment"),
            // Numbers
            ("a = 9223372036854775808", 1, 5, "'9223372036854775808' does not fit in a 64-bit integer"),
            ("a = -9223372036854775809", 1, 5, "'-9223372036854775809' does not fit in a 64-bit integer"),
            (
                "a = 0x1_0000_0000_0000_0000", 1, 5,
                "'0x1_0000_0000_0000_0000' does not fit in a 64-bit integer"
            ),
            ("a = 012", 1, 5, "'012': leading zeros are not allowed"),
            ("a = 1__2", 1, 5, "'1__2': an underscore in a number must sit between two digits"),
            ("a = 1_", 1, 5, "'1_': an underscore in a number must sit between two digits"),
            ("a = 0x", 1, 5, "'0x' is not a valid number"),
            ("a = 0o9", 1, 5, "'0o9' is not a valid number"),
            ("a = +0x1", 1, 5, "'+0x1' is not a valid number"),
            ("a = 1.", 1, 5, "'1.' is not a valid number"),
            ("a = 1e", 1, 5, "'1e' is not a valid number"),
            ("a = 1.2.3", 1, 5, "'1.2.3' is not a valid number"),
            ("a = 1979-05-27", 1, 5, "dates and times are not supported ('1979-05-27')"),
            ("a = 07:32:00", 1, 5, "dates and times are not supported ('07:32:00')"),
        ] as [(String, Int, Int, String)])
    func refused(document: String, line: Int, column: Int, message: String) {
        #expect(failure(document) == TOMLError(message, at: TOMLPosition(line: line, column: column)))
    }

    @Test func invalidUTF8IsFoundOnItsLine() {
        let bytes = Array("a = 1\n# ok\nb = '".utf8) + [0xFF] + Array("'\n".utf8)
        #expect(throws: TOMLError("the text is not valid UTF-8", at: TOMLPosition(line: 3, column: 6))) {
            try TOMLTable.parse(bytes)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let arrays = "a = " + String(repeating: "[", count: 100_000)
        #expect(failure(arrays)?.message == "arrays and inline tables are nested more than 64 deep")
        let tables = "[" + Array(repeating: "t", count: 10_000).joined(separator: ".") + "]"
        #expect(failure(tables)?.message == "tables are nested more than 64 deep")
        let inline = "a = " + String(repeating: "{b=", count: 100_000)
        #expect(failure(inline)?.message == "arrays and inline tables are nested more than 64 deep")
    }

    /// Positions are tracked as the parser goes, never recounted from the start of the line: a
    /// recount would take hours here. The limit only ends a run that hangs; it times nothing.
    @Test(.timeLimit(.minutes(10))) func aVeryLongLineParsesInLinearTime() throws {
        let count = 300_000
        let document = "a = [" + String(repeating: "1,", count: count) + "]\nb = x"
        #expect(
            failure(document)
                == TOMLError(
                    "expected a value, found 'x' (strings need quotes)", at: TOMLPosition(line: 2, column: 5))
        )
        let items = try TOMLTable.parse("a = [" + String(repeating: "1,", count: count) + "'é', 2]")["a"]?
            .array
        #expect(items?.count == count + 2)
        #expect(items?.last?.position == TOMLPosition(line: 1, column: 6 + 2 * count + 5))
    }

    @Test func errorsDescribeTheirPlace() {
        #expect(
            failure("a = 1\na = 2")?.description
                == "line 2, column 1: duplicate key a: already defined on line 1")
    }

    /// Cheap stand-in for the fuzzer until it runs: every prefix of a rich document, and a
    /// pseudo-random mutation of it, must give a table or an error, never a trap.
    @Test func truncatedAndMutatedInputNeverTraps() {
        let document = Array(
            """
            a.b = "s\\u00e9\\n" # c
            [t . 'q']
            n = [0x1F, 0o7, 0b1, -1_0, 1.5e-3, inf, { k = '''x''' }]
            m = \"\"\"
            line \\
              next\"\"\"
            """.utf8)
        for end in 0...document.count {
            _ = try? TOMLTable.parse(Array(document[..<end]))
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<5_000 {
            var mutated = document
            for _ in 0..<3 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let position = Int(truncatingIfNeeded: state >> 33) % mutated.count
                mutated[position] = UInt8(truncatingIfNeeded: state >> 17)
            }
            _ = try? TOMLTable.parse(mutated)
        }
    }
}
