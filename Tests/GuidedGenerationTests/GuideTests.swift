import Foundation
import GuidedGeneration
import PartialJSON
import RegexBuilder
import Testing

/// Every guide stores real data and reaches the JSON Schema; guides that cannot be enforced are
/// refused.
@Suite struct GuideTests {
    struct Sample: Generable {
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Self.self,
                properties: [
                    .init(name: "fixed", type: String.self, guides: [.constant("v1")]),
                    .init(name: "choice", type: String.self, guides: [.anyOf(["a", "b"])]),
                    .init(name: "code", type: String.self, guides: [.pattern(/[A-Z]{3}-\d{2,4}/)]),
                    .init(name: "zip", type: String?.self, guides: [/\d{5}/]),
                    .init(name: "score", type: Double.self, guides: [.range(-1.5...2.5)]),
                    .init(name: "ratio", type: Float.self, guides: [.minimum(0.25)]),
                    .init(name: "price", type: Decimal.self, guides: [.maximum(Decimal(string: "19.99")!)]),
                    .init(name: "count", type: Int.self, guides: [.minimum(1), .maximum(9)]),
                    .init(name: "tags", type: [String].self, guides: [.count(2...5), .element(.anyOf(["x", "y"]))]),
                    .init(name: "grid", type: [[Int]].self, guides: [.minimumCount(1), .element(.count(3)), .element(.element(.range(0...9)))]),
                ])
        }
        init(_ content: GeneratedContent) throws {}
        var generatedContent: GeneratedContent { GeneratedContent(kind: .null) }
    }

    @Test func everyGuideReachesTheJSONSchema() throws {
        let properties = try #require(try Sample.generationSchema.jsonSchema()["properties"])
        #expect(properties["fixed"]?.jsonString == #"{"type":"string","const":"v1"}"#)
        #expect(properties["choice"]?.jsonString == #"{"type":"string","enum":["a","b"]}"#)
        #expect(properties["code"]?.jsonString == #"{"type":"string","pattern":"^(?:[A-Z]{3}\\-\\d{2,4})$"}"#)
        #expect(properties["zip"]?.jsonString == #"{"type":"string","pattern":"^(?:\\d{5})$"}"#)
        #expect(properties["score"]?.jsonString == #"{"type":"number","minimum":-1.5,"maximum":2.5}"#)
        #expect(properties["ratio"]?.jsonString == #"{"type":"number","minimum":0.25}"#)
        #expect(properties["price"]?.jsonString == #"{"type":"number","maximum":19.99}"#)
        #expect(properties["count"]?.jsonString == #"{"type":"integer","minimum":1,"maximum":9}"#)
        #expect(properties["tags"]?.jsonString == #"{"type":"array","items":{"type":"string","enum":["x","y"]},"minItems":2,"maxItems":5}"#)
        #expect(properties["grid"]?.jsonString == #"{"type":"array","items":{"type":"array","items":{"type":"integer","minimum":0,"maximum":9},"minItems":3,"maxItems":3},"minItems":1}"#)
        #expect(try Sample.generationSchema.jsonSchema()["required"]?.arrayValue?.contains(.string("zip")) == false)
    }

    struct Unenforceable: Generable {
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Self.self,
                properties: [.init(name: "word", type: String.self, guides: [.pattern(Regex { OneOrMore(.word) })])])
        }
        init(_ content: GeneratedContent) throws {}
        var generatedContent: GeneratedContent { GeneratedContent(kind: .null) }
    }

    struct InfiniteBound: Generable {
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Self.self, properties: [.init(name: "x", type: Double.self, guides: [.maximum(.infinity)])])
        }
        init(_ content: GeneratedContent) throws {}
        var generatedContent: GeneratedContent { GeneratedContent(kind: .null) }
    }

    @Test func guidesThatCannotBeEnforcedAreRefusedNotDropped() throws {
        // A builder regex keeps no source pattern unless the library can print one; either its
        // pattern reaches the schema or the schema is refused.
        do {
            let pattern = try Unenforceable.generationSchema.jsonSchema()["properties"]?["word"]?["pattern"]
            #expect(pattern != nil)
        } catch let error as GenerationSchema.GuideError {
            #expect(error.path == "Unenforceable.word")
        }
        #expect(throws: GenerationSchema.GuideError.self) { try InfiniteBound.generationSchema.jsonSchema() }
        #expect(throws: GenerationSchema.GuideError.self) {
            try GenerationSchema(root: DynamicGenerationSchema(type: [Int].self, guides: [.minimumCount(5), .maximumCount(2)]), dependencies: [])
        }
    }
}
