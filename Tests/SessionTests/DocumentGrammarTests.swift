@testable import ConstrainedDecoding
import Testing

@testable import GuidedGeneration

/// A JSON Schema document that the engine reads itself is compiled once, when it is read: the
/// session's compact answers use that grammar, and only another layout compiles anew.
@Suite struct DocumentGrammarTests {
    let runtime = ModelRuntime(model: ScriptedModel(), contextSize: 1024)

    @Test func aCompactAnswerUsesTheGrammarCompiledWhenTheDocumentWasRead() throws {
        let schema = try GenerationSchema(jsonSchema: #"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#)
        let compiled = try #require(schema.compiledDocument)
        let compact = try #require(try LanguageModelSession.grammar(answer: schema, tools: nil, layout: .compact, runtime: runtime))
        #expect(compact.shelf === compiled.shelf)
        let indented = try #require(try LanguageModelSession.grammar(answer: schema, tools: nil, layout: .indented(2), runtime: runtime))
        #expect(indented.shelf !== compiled.shelf)
        #expect(indented.options.whitespace == .indented(2))
    }

    @Test func aLenientDocumentKeepsItsLenientGrammar() throws {
        let schema = try GenerationSchema(jsonSchema: #"{"type":"array","contains":{"const":1}}"#, lenient: true)
        let compiled = try #require(schema.compiledDocument)
        #expect(compiled.options.isLenient)
        let grammar = try #require(try LanguageModelSession.grammar(answer: schema, tools: nil, layout: .compact, runtime: runtime))
        #expect(grammar.shelf === compiled.shelf)
    }

    @Test func aSchemaInTheSwiftFormKeepsNoGrammar() throws {
        let schema = try GenerationSchema(jsonSchema: #"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#)
        #expect(schema.compiledDocument == nil)
    }
}
