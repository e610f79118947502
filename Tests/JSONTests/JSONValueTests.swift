import JSON
import TestSupport
import Testing

@Suite("JSON values read from outside bytes and written as text", .computes)
struct JSONValueTests {
    @Test("Every kind of value is read, and numbers keep whether they were whole")
    func reads() async throws {
        let value = try JSONValue(parsing: Array(#"{"a": [1, -2.5, 1e3, true, null, "x\u00e9\n"], "b": {"c": 9007199254740993}}"#.utf8))
        #expect(value["a"] == [1, -2.5, 1000, true, nil, "xé\n"])
        #expect(value["b"]?["c"] == .integer(9_007_199_254_740_993), "a 64-bit id is kept exactly")
        #expect(value["a"]?.array?[1].double == -2.5 && value["a"]?.array?[1].int == nil)
        #expect(value["missing"] == nil && value["a"]?["not an object"] == nil)
    }

    @Test("Text that is not one JSON value is refused", arguments: [
        "", "{", "[1 2]", "{'a': 1}", "01", "NaN", "[1] [2]", "\"\\ud800\"x", "{\"a\" 1}", "1e999",
    ])
    func refuses(_ text: String) async {
        #expect(throws: JSONError.self) { try JSONValue(parsing: Array(text.utf8)) }
    }

    @Test("Deep nesting is refused before it is parsed, at any depth beyond the limit, inside strings not counted")
    func nesting() async throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = #expect(throws: JSONError.self) { try JSONValue(parsing: Array(deep.utf8)) }
        #expect(error?.reason == "it nests deeper than 64 levels")
        let limit = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try JSONValue(parsing: Array(limit.utf8)) != .null)
        let quoted = "[\"" + String(repeating: "[{", count: 500) + "\\\"\"]"
        #expect(try JSONValue(parsing: Array(quoted.utf8)).array?.count == 1)
    }

    @Test("Values are written with keys sorted and slashes as they are")
    func writes() async throws {
        let value: JSONValue = ["b": 1, "a": [true, "x/y", 2.5, nil]]
        #expect(String(decoding: value.text(), as: UTF8.self) == #"{"a":[true,"x/y",2.5,null],"b":1}"#)
        let pretty = String(decoding: JSONValue.object(["a": 1]).text(pretty: true), as: UTF8.self)
        #expect(pretty.contains("\n"))
    }

    @Test("What is written is read back the same")
    func roundTrip() async throws {
        let value: JSONValue = ["id": 7, "name": "caf\u{E9} \"quoted\" \\ \u{1}", "at": 1_796_000_000.123456, "list": [[], [:], nil]]
        #expect(try JSONValue(parsing: value.text()) == value)
    }

    @Test("Texts one after another are read in order: with whitespace or nothing between; one that is not JSON fails them all")
    func sequence() async throws {
        let values = try JSONValue.sequence(parsing: Array(#"[1, "]"] {"a": "}{"}"b"  2 true\#n[]null"#.utf8))
        #expect(values == [[1, "]"], ["a": "}{"], "b", 2, true, [], nil])
        #expect(try JSONValue.sequence(parsing: Array(" \n".utf8)).isEmpty)
        for broken in [#"[1] [2"#, #"[1]]"#, #"{"a": 1} x"#, "12[", #""open"#] {
            #expect(throws: JSONError.self, "\(broken)") { try JSONValue.sequence(parsing: Array(broken.utf8)) }
        }
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        #expect(throws: JSONError.self) { try JSONValue.sequence(parsing: Array(("[] " + deep).utf8)) }
    }

    @Test("Random and mutated bytes never crash or hang the reader")
    func fuzzed() async {
        var generator = SystemRandomNumberGenerator()
        let seeds = [#"{"action": "capture", "at": 1.5, "photos": [{"id": 1}]}"#, #"[1, "a", null, true, {"b": []}]"#, "\"\\u0041\""]
        let alphabet = Array(#"{}[]",:0123456789.eE+-truefalsnul\ "#.utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0xED, 0xA0, 0x80]
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = Array(seeds[round % seeds.count].utf8)
                for _ in 0..<Int.random(in: 1...6, using: &generator) where !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[at] = alphabet[Int.random(in: alphabet.indices, using: &generator)]
                    case 1: bytes.remove(at: at)
                    default: bytes.insert(alphabet[Int.random(in: alphabet.indices, using: &generator)], at: at)
                    }
                }
            } else {
                bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in alphabet[Int.random(in: alphabet.indices, using: &generator)] }
            }
            if let value = try? JSONValue(parsing: bytes) {
                #expect((try? JSONValue(parsing: value.text())) == value)
            }
            if let values = try? JSONValue.sequence(parsing: bytes) {
                let written = values.flatMap { value -> [UInt8] in value.text() + [0x0A] }
                #expect((try? JSONValue.sequence(parsing: written)) == values)
            }
        }
    }
}
