import Foundation
@testable import GuidedGeneration
import Testing

/// JSON Schema documents of any draft, and the lenient policy, on a scripted model.
@Suite struct JSONSchemaDocumentTests {
    /// Distinct numbers: a keyword the grammar cannot enforce.
    static let codes = #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":{"type":"integer","maximum":999},"uniqueItems":true}"#

    @Test func aKeywordThatCannotBeEnforcedIsRefusedByName() {
        #expect {
            try GenerationSchema(jsonSchema: Self.codes)
        } throws: { error in
            (error as? JSONSchemaError)?.keyword == "uniqueItems"
        }
    }

    @Test func leniently_theFinalValueIsCheckedAgainstTheWholeSchema() async throws {
        // Two items at least, so that the repeat is not taken back as a loop.
        let schema = try GenerationSchema(jsonSchema: Self.codes.replacingOccurrences(of: #""uniqueItems""#, with: #""minItems":2,"uniqueItems""#), lenient: true)
        #expect(schema.isLenient)
        let good = try await session(ScriptedModel(replies: ["[1,2]"])).respond(to: "Codes", schema: schema)
        #expect(good.content.jsonString == "[1,2]")
        do {
            _ = try await session(ScriptedModel(replies: ["[1,1]"])).respond(to: "Codes", schema: schema)
            Issue.record("a repeated item was returned as valid")
        } catch LanguageModelSession.GenerationError.decodingFailure(let context) {
            #expect(context.debugDescription.contains("uniqueItems"))
        }
    }

    @Test func distinctStringsAreEnforcedWhileGenerating() async throws {
        let schema = try GenerationSchema(
            jsonSchema: #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":{"type":"string","maxLength":3},"minItems":2,"uniqueItems":true}"#)
        // The script repeats an item; the grammar does not let the repeat end.
        let response = try await session(ScriptedModel(replies: [#"["a","a"]"#])).respond(to: "Tags", schema: schema)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(response.content.jsonString.utf8)) as? [String])
        #expect(items.count >= 2)
        #expect(Set(items).count == items.count, "\(items)")
    }

    /// `{"type":"object"}` (OpenAI's `json_object`, a `dict` parameter) is any object: the
    /// model writes the members it chooses, where before only `{}` could be written.
    @Test func anObjectThatNamesNoPropertyTakesAnyMembers() async throws {
        let reply = #"{"name":"Tom","age":3,"toys":["box"]}"#
        for schema in [#"{"type":"object"}"#, #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","minProperties":1}"#] {
            let response = try await session(ScriptedModel(replies: [reply])).respond(to: "A cat", schema: try GenerationSchema(jsonSchema: schema))
            #expect(response.content.jsonString == reply, "\(schema)")
        }
        let request = try ChatCompletionRequest(body: Array(#"{"messages":[{"role":"user","content":"A cat"}],"response_format":{"type":"json_object"}}"#.utf8))
        let turn = try await ProviderModel(SystemLanguageModel(backend: ScriptedModel(replies: [reply]))).turn(
            request.generation, json: true, cancellation: CancellationFlag()) { _, _ in }
        #expect(turn.responseText == reply)
    }

    @Test func aDraft07DocumentIsEnforcedWhileGenerating() async throws {
        let schema = try GenerationSchema(jsonSchema: #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer","exclusiveMinimum":2,"maximum":9}},"required":["n"],"additionalProperties":false}"#)
        // The script asks for 1; the grammar only lets a valid value through.
        let response = try await session(ScriptedModel(replies: [#"{"n":1}"#])).respond(to: "A number", schema: schema)
        let text = response.content.jsonString
        #expect(text.hasPrefix(#"{"n":"#))
        let value = Int(text.dropFirst(5).dropLast()) ?? 0
        #expect(value > 2 && value <= 9, "\(text)")
    }
}
