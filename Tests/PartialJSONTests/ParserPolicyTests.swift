import PartialJSON
import Testing

/// Errors, limits and the choices RFC 8259 leaves to the implementation.
@Suite struct ParserPolicyTests {
    func error(_ text: String, maximumDepth: Int = PartialJSONParser.defaultMaximumDepth) -> JSONParseError? {
        do throws(JSONParseError) {
            _ = try JSONValue(parsing: Array(text.utf8), maximumDepth: maximumDepth)
            return nil
        } catch {
            return error
        }
    }

    @Test func errorsSayWhereAndWhatWasExpected() throws {
        let unexpected = try #require(error("{\n  \"a\": 1,\n  \"b\" 2\n}"))
        #expect(unexpected.reason == .unexpectedByte(UInt8(ascii: "2")))
        #expect(unexpected.expected == "':'")
        #expect((unexpected.offset, unexpected.line, unexpected.column) == (18, 3, 7))
        #expect(unexpected.description == "line 3, column 7 (byte 18): unexpected '2'; expected ':'")

        let truncated = try #require(error(#"[1, "abc"#))
        #expect(truncated.reason == .unexpectedEndOfInput)
        #expect(truncated.offset == 8)
        #expect(truncated.expected == "more characters or '\"' closing the string")

        #expect(error("[1,]")?.expected == "a value")
        #expect(error(#"{"a":1 "b"}"#)?.expected == "',' or '}'")
        #expect(error("\"a\u{1}\"")?.reason == .controlCharacterInString)
        #expect(error(#""\x""#)?.reason == .invalidEscape)
        #expect(error(#""\ud800x""#)?.reason == .loneSurrogate)
        #expect(error("[1] 2")?.expected == "end of input")
    }

    @Test func aValidPrefixIsNeverAnErrorBeforeFinish() throws {
        let text = Array(#"{"a": [1.5e-3, true, "x\u00e9"], "b": null}"#.utf8)
        for length in 0..<text.count {
            let parser = PartialJSONParser()
            try parser.feed(text[..<length])
            #expect(throws: JSONParseError.self) { try parser.finish() }
        }
    }

    @Test func anErrorIsSticky() throws {
        let parser = PartialJSONParser()
        let first = #expect(throws: JSONParseError.self) { try parser.feed("[1,,") }
        let second = #expect(throws: JSONParseError.self) { try parser.feed("2]") }
        #expect(first == second)
        #expect(throws: JSONParseError.self) { try parser.finish() }
    }

    @Test func nestingIsLimited() throws {
        let within = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(error(within) == nil)
        let beyond = String(repeating: "[", count: 513)
        #expect(error(beyond)?.reason == .depthLimitExceeded(512))
        #expect(error(beyond)?.offset == 512)
        #expect(error(#"{"a":{"b":[1]}}"#, maximumDepth: 2)?.reason == .depthLimitExceeded(2))
        #expect(PartialJSONParser(maximumDepth: 1_000_000).maximumDepth == PartialJSONParser.depthCeiling)
        // Far deeper input than any limit fails cleanly rather than overflowing the stack.
        #expect(error(String(repeating: "[{\"a\":", count: 200_000))?.reason == .depthLimitExceeded(512))
    }

    @Test func duplicateKeysAreKeptInOrderAndTheLastWinsOnLookup() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["a", "b", "a"])
        #expect(object.hasDuplicateKeys)
        #expect(value["a"] == .number(3))
        #expect(value.jsonString == #"{"a":1,"b":2,"a":3}"#)
    }

    @Test func keyOrderIsKept() throws {
        let value = try JSONValue(parsing: #"{"zeta":1,"alpha":2,"mid":{"y":1,"x":2}}"#)
        #expect(value.objectValue?.keys == ["zeta", "alpha", "mid"])
        #expect(value.jsonString == #"{"zeta":1,"alpha":2,"mid":{"y":1,"x":2}}"#)
    }

    @Test func invalidUTF8IsRejectedWhereItStarts() throws {
        for (bytes, offset) in [([0x22, 0x61, 0xC0, 0x80, 0x22], 2), ([0x22, 0xED, 0xA0, 0x80, 0x22], 2), ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2), ([0x22, 0xE2, 0x82, 0x22], 3), ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], 0)] as [([UInt8], Int)] {
            do throws(JSONParseError) {
                _ = try JSONValue(parsing: bytes)
                Issue.record("accepted \(bytes)")
            } catch {
                #expect(error.offset == offset, "\(bytes)")
            }
        }
    }

    @Test func serializationIsCompactAndEscapesWhatItMust() throws {
        let text = #" { "s" : "q\"b\\n\n\u0001é😀/" , "a" : [ 1 , -2.50e+3 , true , false , null ] } "#
        let value = try JSONValue(parsing: text)
        #expect(value.jsonString == #"{"s":"q\"b\\n\n\u0001é😀/","a":[1,-2.50e+3,true,false,null]}"#)
        #expect(try JSONValue(parsing: value.jsonString) == value)
    }
}
