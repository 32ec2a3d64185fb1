import JSON
import Testing

@Suite struct JSONParsing {
    @Test func parsesADevToolsReply() throws {
        let value = try JSONValue.parse(
            #"{"id":7,"result":{"targetInfos":[{"type":"page","attached":false}]},"sessionId":"AB\u00e9\n"}"#)
        #expect(value["id"]?.numberValue == 7)
        #expect(value["sessionId"]?.stringValue == "ABé\n")
        let infos = value["result"]?["targetInfos"]?.arrayValue
        #expect(infos?.first?["type"]?.stringValue == "page")
        #expect(infos?.first?["attached"]?.boolValue == false)
    }

    @Test func keepsKeyOrderAndNumbers() throws {
        let value = try JSONValue.parse(" { \"b\" : [1.5, -0, 2e3, null, true], \"a\": {} } ")
        #expect(
            value
                == .object([
                    ("b", .array([.number(1.5), .number(-0.0), .number(2000), .null, .bool(true)])),
                    ("a", .object([])),
                ]))
    }

    @Test func joinsSurrogatePairs() throws {
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue.parse(#""\ud83d x""#) == .string("\u{FFFD} x"))
    }

    @Test(arguments: [
        ("", 0), ("{", 1), ("[1,]", 3), ("{\"a\" 1}", 5), ("01", 1), ("1.", 2), ("\"a", 2), ("tru", 0),
        ("\"\\x\"", 2), ("[1] 2", 4), ("\"\u{01}\"", 1), ("-", 0), ("[1e999]", 6),
    ])
    func rejectsWithTheOffset(text: String, offset: Int) {
        #expect(throws: JSONError.self) { try JSONValue.parse(text) }
        do {
            _ = try JSONValue.parse(text)
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
        }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONError.self) { try JSONValue.parse(deep) }
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect((try? JSONValue.parse(fine)) != nil)
    }
}

@Suite struct JSONWriting {
    @Test func writesCompactText() {
        let value = JSONValue.object([
            ("method", .string("Emulation.setEmulatedMedia")),
            (
                "params",
                .object([("features", .array([.object([("name", .string("prefers-color-scheme"))])]))])
            ),
            ("id", .number(3)), ("x", .number(0.1)), ("nan", .number(.nan)), ("ok", .bool(true)),
            ("n", .null),
        ])
        #expect(
            value.text
                == #"{"method":"Emulation.setEmulatedMedia","params":{"features":[{"name":"prefers-color-scheme"}]},"id":3,"x":0.1,"nan":null,"ok":true,"n":null}"#
        )
    }

    @Test func escapesWhatJSONRequires() {
        #expect(JSONValue.string("a\"b\\c\n\u{01}é").text == #""a\"b\\c\n\u0001é""#)
    }

    @Test func roundTrips() throws {
        let value = JSONValue.array([
            .string("x\ty"), .number(1e-7), .number(123_456_789_012), .object([("k", .null)]),
        ])
        #expect(try JSONValue.parse(value.text) == value)
    }
}
