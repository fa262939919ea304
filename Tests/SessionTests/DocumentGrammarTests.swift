@testable import ConstrainedDecoding
import Testing

@testable import GuidedGeneration

/// A JSON Schema document that the engine reads itself is compiled once, when it is read, in
/// the layout of local models' answers: a session answering in that layout uses that grammar,
/// and only another layout compiles anew.
@Suite struct DocumentGrammarTests {
    let runtime = ModelRuntime(model: ScriptedModel(), contextSize: 1024)

    @Test func anAnswerInTheLocalLayoutUsesTheGrammarCompiledWhenTheDocumentWasRead() throws {
        let schema = try GenerationSchema(jsonSchema: #"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#)
        let compiled = try #require(schema.compiledDocument)
        #expect(compiled.options.whitespace == JSONLayout.localAnswers.whitespace)
        let local = try #require(try LanguageModelSession.grammar(answer: schema, tools: nil, layout: .localAnswers, runtime: runtime))
        #expect(local.shelf === compiled.shelf)
        let compact = try #require(try LanguageModelSession.grammar(answer: schema, tools: nil, layout: .compact, runtime: runtime))
        #expect(compact.shelf !== compiled.shelf)
        #expect(compact.options.whitespace == .compact)
    }

    @Test func aLenientDocumentKeepsItsLenientGrammar() throws {
        let schema = try GenerationSchema(jsonSchema: #"{"type":"array","contains":{"const":1}}"#, lenient: true)
        let compiled = try #require(schema.compiledDocument)
        #expect(compiled.options.isLenient)
        let grammar = try #require(try LanguageModelSession.grammar(answer: schema, tools: nil, layout: .localAnswers, runtime: runtime))
        #expect(grammar.shelf === compiled.shelf)
    }

    /// Every document read from JSON is read by the engine and keeps its grammar, in the form
    /// Swift types write too; the schemas of Swift types compile when first used.
    @Test func everyDocumentKeepsItsGrammarAndSwiftTypesCompileWhenUsed() throws {
        let schema = try GenerationSchema(jsonSchema: #"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#)
        #expect(schema.compiledDocument != nil)
        #expect(Int.generationSchema.compiledDocument == nil)
        let never = try GenerationSchema(jsonSchema: Never.generationSchema.jsonSchema())
        #expect(never.compiledDocument == nil && never.isSame(as: Never.generationSchema))
    }
}
