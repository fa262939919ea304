import Foundation
import GuidedGeneration
import Testing

/// JSON Schema documents as generators write them (draft-07 with `definitions`, as
/// zod-to-json-schema and Pydantic v1 do), answered by the real model.
@Suite(.serialized) struct JSONSchemaDraftTests {
    static let person = #"""
        {"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/Person","definitions":{"Person":{
        "type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":40},"age":{"type":"integer","minimum":0,"maximum":120},
        "email":{"type":"string","format":"email"},"hobbies":{"type":"array","items":{"type":"string","maxLength":30},"minItems":1,"maxItems":3}},
        "required":["name","age","hobbies"],"additionalProperties":false}}}
        """#

    @Test func aDraft07DocumentGivesAValidValue() async throws {
        let session = LanguageModelSession(model: try requireModel())
        let response = try await session.respond(to: "Describe a person who likes hiking.", schema: try GenerationSchema(jsonSchema: Self.person), options: greedy)
        #expect(response.rawContent.isComplete)
        let name = try response.rawContent.value(String.self, forProperty: "name")
        #expect(!name.isEmpty && name.count <= 40)
        let age = try response.rawContent.value(Int.self, forProperty: "age")
        #expect((0...120).contains(age))
        let hobbies = try response.rawContent.value([String].self, forProperty: "hobbies")
        #expect((1...3).contains(hobbies.count))
    }
}
