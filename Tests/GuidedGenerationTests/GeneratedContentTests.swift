import Foundation
import GuidedGeneration
import Testing

/// GeneratedContent: kinds, initializers, truncated JSON, values and built-in conversions.
@Suite struct GeneratedContentTests {
    @Test func truncatedJSONGivesIncompleteContent() throws {
        let content = try GeneratedContent(json: #"{"title": "A story of"#)
        #expect(try content.value(String.self, forProperty: "title") == "A story of")
        #expect(!content.isComplete)
        guard case .structure(let properties, let keys) = content.kind else {
            Issue.record("not a structure")
            return
        }
        #expect(keys == ["title"])
        #expect(properties["title"]?.isComplete == false)

        let complete = try GeneratedContent(json: #"{"title": "Done", "tags": ["a"]}"#)
        #expect(complete.isComplete)
        #expect(try complete.value([String].self, forProperty: "tags") == ["a"])
        #expect(try GeneratedContent(json: "42").kind == .number(42))
        #expect(try GeneratedContent(json: "[1, 2").kind == .array([GeneratedContent(kind: .number(1))]))
    }

    @Test func invalidJSONIsADataCorruptedError() {
        for text in ["", "   ", "{\"a\" 1}", "[1,]x", "1e999"] {
            #expect(throws: DecodingError.self, "\(text)") { try GeneratedContent(json: text) }
        }
    }

    @Test func propertiesKeepTheirOrder() throws {
        let content = GeneratedContent(properties: ["zeta": 1, "alpha": "a", "mid": true])
        #expect(content.jsonString == #"{"zeta":1,"alpha":"a","mid":true}"#)
        let merged = GeneratedContent(
            properties: [("a", 1 as any ConvertibleToGeneratedContent), ("b", 2), ("a", 3)],
            uniquingKeysWith: { first, second in GeneratedContent(kind: .array([first, second])) })
        #expect(merged.jsonString == #"{"a":[1,3],"b":2}"#)
        #expect(GeneratedContent(elements: [1 as any ConvertibleToGeneratedContent, "x", false]).jsonString == #"[1,"x",false]"#)
        #expect(try GeneratedContent(json: #"{"b":1,"a":2,"b":3}"#).jsonString == #"{"b":3,"a":2}"#)
    }

    @Test func optionalPropertiesAreNilWhenMissingOrNull() throws {
        let content = try GeneratedContent(json: #"{"a": null, "b": 5}"#)
        #expect(try content.value(Int?.self, forProperty: "a") == nil)
        #expect(try content.value(Int?.self, forProperty: "missing") == nil)
        #expect(try content.value(Int?.self, forProperty: "b") == 5)
        #expect(throws: DecodingError.self) { try content.value(Int.self, forProperty: "missing") }
        #expect(throws: DecodingError.self) { try GeneratedContent(kind: .string("x")).value(Int?.self, forProperty: "a") }
    }

    @Test func builtInConversions() throws {
        #expect(try Int(GeneratedContent(kind: .number(3))) == 3)
        #expect(throws: DecodingError.self) { try Int(GeneratedContent(kind: .number(3.5))) }
        #expect(throws: DecodingError.self) { try Int(GeneratedContent(kind: .number(1e300))) }
        #expect(try Double(GeneratedContent(json: "-2.5e-3")) == -0.0025)
        #expect(try Float(GeneratedContent(kind: .number(0.5))) == 0.5)
        #expect(try Decimal(GeneratedContent(kind: .number(12.25))) == Decimal(string: "12.25"))
        #expect(try Bool(GeneratedContent(json: "true")) == true)
        #expect(try [Int?](GeneratedContent(json: "[1, null, 3]")) == [1, nil, 3])
        #expect(try String?(GeneratedContent(json: "null")) == nil)
        #expect(throws: DecodingError.self) { try Never(GeneratedContent(kind: .null)) }
        let content = try GeneratedContent(json: #"{"x": [true]}"#)
        #expect(try GeneratedContent(content) == content)
        #expect(12.5.generatedContent.jsonString == "12.5")
        #expect(Decimal(string: "0.1")!.generatedContent.jsonString == "0.1")
        #expect((nil as Int?).generatedContent.kind == .null)
    }

    @Test func arrayErrorsSayWhichElement() throws {
        do {
            _ = try [Int](GeneratedContent(json: #"[1, "two"]"#))
            Issue.record("accepted a string element")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["[1]"])
        }
    }

    @Test func identitiesAreUnique() {
        #expect(GenerationID() != GenerationID())
        let id = GenerationID()
        #expect(GeneratedContent("x", id: id).id == id)
        #expect(GeneratedContent(kind: .null, id: id).id == id)
    }
}
