import TOML
import Testing

@Suite struct ValueTests {
    func value(_ document: String, _ key: String = "v") throws -> TOMLValue? {
        try TOMLTable.parse(document)[key]
    }

    @Test func basicStringsUnescape() throws {
        let text = try value(#"v = "a\tb\nc\"d\\e\u00E9\U0001F600\b\f\r""#)?.string
        #expect(text == "a\tb\nc\"d\\eé😀\u{08}\u{0C}\r")
    }

    @Test func literalStringsKeepBackslashes() throws {
        #expect(try value(#"v = 'C:\dir\n'"#)?.string == #"C:\dir\n"#)
    }

    @Test func multiLineBasicStringsTrimTheFirstBreakAndJoinBackslashLines() throws {
        #expect(try value("v = \"\"\"\nline 1\nline 2\"\"\"")?.string == "line 1\nline 2")
        #expect(try value("v = \"\"\"one \\\n\n     two\"\"\"")?.string == "one two")
        #expect(try value("v = \"\"\"crlf\r\nkept as lf\"\"\"")?.string == "crlf\nkept as lf")
    }

    @Test func multiLineStringsMayEndWithTwoOfTheirQuotes() throws {
        #expect(try value("v = \"\"\"\"x\"\"\"\"\"")?.string == "\"x\"\"")
        #expect(try value("v = '''''y'''''")?.string == "''y''")
    }

    @Test func multiLineLiteralStringsAreRaw() throws {
        #expect(try value("v = '''\n\\n is \"raw\"\n'''")?.string == "\\n is \"raw\"\n")
    }

    @Test(
        arguments: [
            ("0", 0), ("+17", 17), ("-17", -17), ("1_000_000", 1_000_000), ("0x23", 0x23),
            ("0xdead_BEEF", 0xDEAD_BEEF),
            ("0o660", 0o660), ("0b1010", 10), ("9223372036854775807", .max), ("-9223372036854775808", .min),
            ("0x7FFFFFFFFFFFFFFF", .max), ("0o0", 0),
        ] as [(String, Int64)])
    func integers(text: String, expected: Int64) throws {
        #expect(try value("v = \(text)")?.integer == expected)
    }

    @Test(
        arguments: [
            ("1.5", 1.5), ("-0.25", -0.25), ("+2.0", 2.0), ("1e3", 1000), ("1E-3", 0.001),
            ("6.02e+23", 6.02e23),
            ("1_000.5", 1000.5), ("0.0", 0), ("inf", .infinity), ("+inf", .infinity), ("-inf", -.infinity),
            ("1e400", .infinity),
        ] as [(String, Double)])
    func floats(text: String, expected: Double) throws {
        let parsed = try value("v = \(text)")
        #expect(parsed?.typeName == "float")
        #expect(parsed?.number == expected)
    }

    @Test func nanIsAFloat() throws {
        for text in ["nan", "+nan", "-nan"] {
            #expect(try value("v = \(text)")?.number?.isNaN == true)
        }
    }

    @Test func negativeZeroKeepsItsSign() throws {
        #expect(try value("v = -0.0")?.number?.sign == .minus)
    }

    @Test func integersReadAsNumbersToo() throws {
        let parsed = try value("v = 5")
        #expect(parsed?.typeName == "integer")
        #expect(parsed?.number == 5.0)
        #expect(parsed?.string == nil)
    }

    @Test func booleans() throws {
        #expect(try value("v = true")?.boolean == true)
        #expect(try value("v = false")?.boolean == false)
    }

    @Test func arraysMayMixTypesSpanLinesAndEndInAComma() throws {
        let items = try value("v = [\n  1, # one\n  'two',\n  [3.0],\n]")?.array
        #expect(items?.count == 3)
        #expect(items?[0].integer == 1)
        #expect(items?[1].string == "two")
        #expect(items?[2].array?.first?.number == 3.0)
        #expect(items?[1].position == TOMLPosition(line: 3, column: 3))
    }

    @Test func inlineTablesWithDottedKeys() throws {
        let table = try value("v = { fall = 20, rise.value = 50 }")?.table
        #expect(table?.keys == ["fall", "rise"])
        #expect(table?["fall"]?.integer == 20)
        #expect(table?["rise"]?.table?["value"]?.integer == 50)
    }

    @Test func headersAndDottedKeysBuildTheSameTree() throws {
        let headers = try TOMLTable.parse("[sensor]\nbus = 1\n[sensor.bh1750]\nmode = 'high'\n")
        let dotted = try TOMLTable.parse("sensor.bus = 1\nsensor.bh1750.mode = 'high'\n")
        let inline = try TOMLTable.parse("sensor = { bus = 1, bh1750 = { mode = 'high' } }\n")
        func shape(_ table: TOMLTable) -> String? {
            table["sensor"]?.table.map {
                "\($0.keys) \($0["bus"]?.integer ?? -1) \($0["bh1750"]?.table?["mode"]?.string ?? "")"
            }
        }
        #expect(shape(headers) == "[\"bus\", \"bh1750\"] 1 high")
        #expect(shape(dotted) == shape(headers))
        #expect(shape(inline) == shape(headers))
    }

    @Test func quotedKeysMayHoldAnything() throws {
        let table = try TOMLTable.parse("\"a.b\" = 1\n'' = 2\n\"é\" = 3\n")
        #expect(table.keys == ["a.b", "", "é"])
    }

    @Test func keysKeepTheirWrittenOrder() throws {
        #expect(try TOMLTable.parse("z = 1\na = 2\nm = 3\n").keys == ["z", "a", "m"])
    }

    @Test func valuesRememberTheirLineAndColumn() throws {
        let table = try TOMLTable.parse("# header\n\n[timing]\n  dwell =   5\n[gpio]\n")
        let timing = table["timing"]
        #expect(timing?.position == TOMLPosition(line: 3, column: 1))
        #expect(timing?.table?["dwell"]?.position == TOMLPosition(line: 4, column: 13))
        #expect(table["gpio"]?.position == TOMLPosition(line: 5, column: 1))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let table = try TOMLTable.parse("\"été\" = 'ü'\nnext = 1")
        #expect(table["été"]?.position == TOMLPosition(line: 1, column: 9))
    }

    @Test func anImplicitTableTakesThePositionOfItsLaterHeader() throws {
        let table = try TOMLTable.parse("[a.b]\nx = 1\n\n[a]\ny = 2\n")
        #expect(table["a"]?.position.line == 4)
        #expect(table["a"]?.table?["b"]?.position.line == 1)
    }

    @Test func crlfLineEndingsCountAsOneLine() throws {
        let table = try TOMLTable.parse("a = 1\r\nb = 2\r\n")
        #expect(table["b"]?.position.line == 2)
    }
}
