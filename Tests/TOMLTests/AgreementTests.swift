import Foundation
import TOML
import Testing

/// This parser and Python's tomllib must read the same documents the same way: every shipped
/// file, and a corpus of the corners of TOML that the project's files might touch.
@Suite struct AgreementTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every board profile and every configuration the project ships.
    static func shippedFiles() throws -> [String] {
        var paths: [String] = []
        for folder in ["boards", "config"] {
            let directory = repository.appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            paths += names.filter { $0.hasSuffix(".toml") || $0.hasSuffix(".toml.example") }.sorted()
                .map { directory.appendingPathComponent($0).path }
        }
        return paths
    }

    @Test func shippedFilesParseExactlyAsTomllibReadsThem() throws {
        let paths = try Self.shippedFiles()
        let names = Set(paths.map { URL(fileURLWithPath: $0).lastPathComponent })
        for expected in [
            "raspberry-pi-3.toml", "raspberry-pi-4.toml", "raspberry-pi-400.toml", "raspberry-pi-5.toml",
            "raspberry-pi-zero.toml", "raspberry-pi-zero-2-w.toml", "raspberry-pi-cm4.toml", "generic.toml",
            "ambience.toml",
        ] {
            #expect(names.contains(expected), "\(expected) is not shipped")
        }
        let reference = try StandardParser.canonicalForms(ofFiles: paths)
        for (path, expected) in zip(paths, reference) {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let parsed = try TOMLTable.parse(bytes)
            #expect(expected != nil, "tomllib rejects \(path)")
            #expect(StandardParser.canonicalForm(.table(parsed)) == expected, "\(path) reads differently")
        }
    }

    static let validDocuments: [String] = [
        "",
        "# only a comment\n\n   \n",
        "a = 1\r\nb = 2\r\n",
        "bare_key-1 = 'x'\n\"quoted key\" = 1\n'literal key' = 2\n\"\" = 3\n1234 = 4\n",
        "a.b.c = 1\na.b.d = 2\na . e = 3\n\"x.y\".z = 4\n",
        "str = \"tab\\there \\\"q\\\" back\\\\slash \\u00e9 \\U0001F600 \\b\\f\\n\\r\"\n",
        "lit = 'C:\\path\\no escapes'\n",
        "ml = \"\"\"\nfirst\nsecond\"\"\"\n",
        "ml = \"\"\"one \\\n    two \\\n\n    three\"\"\"\n",
        "ml = \"\"\"a \\   \n  b\"\"\"\n",
        "ml = \"\"\"\"quoted\" \"\"\"\nq2 = \"\"\"x\"\"\"\"\"\nq3 = '''''y'''''\n",
        "ml = '''\n  raw \\n text\n'''\n",
        "ml = \"\"\"\r\ncrlf\r\nlines\"\"\"\n",
        "e = \"\"\nel = ''\neml = \"\"\"\"\"\"\n",
        "unicode = \"日本語 ✓\"\n# コメント\n",
        "i = [0, +1, -1, 42, 1_000, -9223372036854775808, 9223372036854775807]\n",
        "h = [0xDEADbeef, 0xdead_beef, 0x0, 0o755, 0o0_7, 0b1101, 0b0, 0x7FFFFFFFFFFFFFFF]\n",
        "f = [1.0, -0.5, +3.25, 0.1, 1e6, 1E-6, 6.626e-34, 1_000.000_1, 2e0_1, 0.0, -0.0, 1e06]\n",
        "f = [inf, +inf, -inf, nan, +nan, -nan, 1e400, 5e-324, 1.7976931348623157e308]\n",
        "b = [true, false]\n",
        "a = [ ]\nb = [1,]\nc = [\n  1, # one\n  2\n  , 3,\n]\nd = [[1, 2], ['a', \"b\"], [], [{}]]\n",
        "mixed = [1, 'two', 3.0, true, [4], { five = 5 }]\n",
        "t = {}\nu = { a = 1, b.c = 'x', d = { e = [1] } }\n",
        "[table]\nkey = 1\n[table.sub]\nkey = 2\n['quoted \"header\"']\n[ spaced . header ]\n",
        "[a.b.c]\nx = 1\n[a]\ny = 2\n[a.b]\nz = 3\n",
        "[fruit]\napple.color = 'red'\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true\n",
        "[x.y.z]\n[x]\ny.w = 1\n",
        "a = 1 # trailing comment\n[t] # header comment\nb = 'x'#tight\n",
        "key = \"value\"\t\t# tabs\n\tindented = 1\n",
        "no_final_newline = true",
        "[sensor]\naddress = 0x23\n[pipes]\nmode = 0o660\npaths = ['/run/ambience/state']\n",
    ]

    @Test func validDocumentsReadTheSameAsTomllib() throws {
        let reference = try StandardParser.canonicalForms(of: Self.validDocuments)
        for (document, expected) in zip(Self.validDocuments, reference) {
            #expect(expected != nil, "tomllib rejects \(document.debugDescription)")
            let parsed = try TOMLTable.parse(document)
            #expect(StandardParser.canonicalForm(.table(parsed)) == expected, "\(document.debugDescription)")
        }
    }

    static let invalidDocuments: [String] = [
        "a = \n", "= 1\n", "a = 1 b = 2\n", "a = 1\na = 2\n", "a.b = 1\na.b.c = 2\n", "a = 1\na.b = 2\n",
        "[a]\n[a]\n", "a.b = 1\n[a]\n", "[a]\nb.c = 1\n[a.b]\n", "[a.b]\n[a]\nb.c = 1\n",
        "a = {}\n[a]\n", "a = {b = 1}\na.c = 2\n", "a = {b = {}, b.c = 1}\n", "a = {b = 1, b = 2}\n",
        "a = {b = 1,}\n", "a = {b = 1\n}\n", "a = [1 2]\n", "a = [1,,2]\n", "a = [,]\n", "a = [1\n",
        "a = 'unterminated\n", "a = \"unterminated\n", "a = \"\"\"never closed\n", "a = '''never\n",
        "a = \"\\x41\"\n", "a = \"\\u12\"\n", "a = \"\\uD800\"\n", "a = \"\\U00110000\"\n",
        "a = \"tab\u{01}\"\n", "a = '\u{7F}'\n", "# bell \u{07}\n", "a = 1\rb = 2\n",
        "a = \"\"\"x \\  y\"\"\"\n", "a = 01\n", "a = 1__0\n", "a = _1\n", "a = 1_\n", "a = 0x\n",
        "a = +0x10\n", "a = 0X10\n", "a = 0o8\n", "a = 0b2\n", "a = 1.\n", "a = .5\n", "a = 1.e5\n",
        "a = 1e\n", "a = 1e_5\n", "a = 1._5\n", "a = 01.5\n", "a = infinity\n", "a = True\n",
        "a = bare\n", "[a\n", "[]\n", "[a.]\n", "a. = 1\n", "\"\"\"key\"\"\" = 1\n", "a = 1 # ok\n b\n",
        "[[array]]\n",
    ]

    @Test func invalidDocumentsAreRejectedByBoth() throws {
        let reference = try StandardParser.canonicalForms(of: Self.invalidDocuments)
        for (document, expected) in zip(Self.invalidDocuments, reference) {
            if document.hasPrefix("[[") {
                // Valid TOML that this parser deliberately refuses; tomllib reads it.
                #expect(expected != nil)
            } else {
                #expect(expected == nil, "tomllib accepts \(document.debugDescription)")
            }
            #expect(throws: TOMLError.self, "\(document.debugDescription)") { try TOMLTable.parse(document) }
        }
    }

    /// What TOMLWriter writes, both parsers read back as the value written.
    @Test func writtenValuesReadBackTheSameInBoth() throws {
        let position = TOMLPosition(line: 1, column: 1)
        func value(_ content: TOMLValue.Content) -> TOMLValue { TOMLValue(content, at: position) }
        let controls = String(
            String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init) + ["\u{7F}"]))
        var nested = TOMLTable()
        nested.set("a b", value(.integer(1)))
        nested.set("", value(.string("empty key")))
        nested.set("x.y", value(.array([value(.boolean(true)), value(.table(TOMLTable()))])))
        let values: [TOMLValue.Content] = [
            .string(controls), .string("quote \" backslash \\ é 😀 '''"), .string(""),
            .integer(.min), .integer(.max), .float(0.1), .float(1e-5), .float(1e16),
            // 5e-324, which 6.0.3 warns about as a literal.
            .float(.leastNonzeroMagnitude), .float(.greatestFiniteMagnitude), .float(-0.0), .float(.infinity),
            .float(-.infinity),
            .float(.nan),
            .float(123_456.789), .array([]),
            .array([value(.array([value(.integer(1))])), value(.string("s"))]),
            .table(nested), .table(TOMLTable()),
        ]
        let documents = values.map { "v = " + TOMLWriter.inline($0) + "\n" }
        let reference = try StandardParser.canonicalForms(of: documents)
        for (content, (document, expected)) in zip(values, zip(documents, reference)) {
            let parsed = try TOMLTable.parse(document)
            #expect(expected == StandardParser.canonicalForm(.table(parsed)), "\(document.debugDescription)")
            #expect(
                parsed["v"].map { StandardParser.canonicalForm($0.content) }
                    == StandardParser.canonicalForm(content))
        }
        #expect(TOMLWriter.key("bare_key-1") == "bare_key-1")
        #expect(TOMLWriter.key("needs quotes") == "\"needs quotes\"")
    }

    @Test func invalidUTF8IsRejectedByBoth() throws {
        let bytes: [UInt8] = Array("a = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "invalid-utf8-\(getpid()).toml")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try StandardParser.canonicalForms(ofFiles: [url.path]) == [nil])
        #expect(throws: TOMLError("the text is not valid UTF-8", at: TOMLPosition(line: 1, column: 6))) {
            try TOMLTable.parse(bytes)
        }
    }
}
