@testable import ConstrainedDecoding
import Foundation
import PartialJSON
import Synchronization
import Testing

@testable import GuidedGeneration

/// A document is compiled, and a response checked by a validator built, once per schema value,
/// shared by every turn, session and request that reads or checks against an equal schema.
@Suite struct SchemaCacheTests {
    static let document = #"{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$"},"tags":{"type":"array","contains":{"const":"x"}}},"required":["code"]}"#

    @Test func equalSchemasShareOneValidator() throws {
        let cache = SchemaCache()
        let valid = try GeneratedContent(json: #"{"code":"ABC","tags":["x"]}"#)
        for _ in 0..<3 {
            // A schema read anew each time: equal values, not one instance.
            let schema = try GenerationSchema(jsonSchema: try JSONValue(parsing: Self.document), lenient: true)
            try LanguageModelSession.check(valid, against: schema, failure: "broken", cache: cache)
        }
        #expect(cache.validatorsBuilt == 1)
        let other = try GenerationSchema(jsonSchema: try JSONValue(parsing: #"{"type":"string"}"#))
        try LanguageModelSession.check(try GeneratedContent(json: #""text""#), against: other, failure: "broken", cache: cache)
        try LanguageModelSession.check(try GeneratedContent(json: #""more""#), against: other, failure: "broken", cache: cache)
        #expect(cache.validatorsBuilt == 2)
    }

    @Test func equalDocumentsShareOneGrammar() throws {
        let cache = SchemaCache()
        let document = try JSONValue(parsing: Self.document)
        let first = try cache.grammar(forDocument: document, lenient: true)
        let second = try cache.grammar(forDocument: try JSONValue(parsing: Self.document), lenient: true)
        #expect(first.shelf === second.shelf && cache.grammarsCompiled == 1)
        let strict = try cache.grammar(forDocument: try JSONValue(parsing: #"{"type":"string"}"#), lenient: false)
        #expect(strict.shelf !== first.shelf && cache.grammarsCompiled == 2)
        // Reading a document twice gives the same grammar, from the shared cache.
        let text = #"{"type":"object","properties":{"when":{"type":"string","format":"date"}},"required":["when"]}"#
        let read = try #require(try GenerationSchema(jsonSchema: text).compiledDocument)
        #expect(try #require(try GenerationSchema(jsonSchema: text).compiledDocument).shelf === read.shelf)
    }

    @Test func aSharedValidatorStillRefusesWhatBreaksTheSchema() throws {
        let cache = SchemaCache()
        let schema = try GenerationSchema(jsonSchema: try JSONValue(parsing: Self.document), lenient: true)
        try LanguageModelSession.check(try GeneratedContent(json: #"{"code":"ABC","tags":["x"]}"#), against: schema, failure: "broken", cache: cache)
        for json in [#"{"code":"ABC","tags":["y"]}"#, #"{"code":"abc"}"#] {
            #expect {
                try LanguageModelSession.check(try GeneratedContent(json: json), against: schema, failure: "broken", cache: cache)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.decodingFailure(let context) = error else { return false }
                return context.debugDescription.hasPrefix("broken: ")
            }
        }
        #expect(cache.validatorsBuilt == 1)
    }

    @Test func oneValidatorChecksFromManyThreadsAtOnce() throws {
        let validator = try SchemaValidator(jsonSchema: try JSONValue(parsing: Self.document))
        let verdicts = Mutex([Bool](repeating: false, count: 64))
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let code = index.isMultiple(of: 2) ? "ABC" : "AB\(index)"
            let valid = validator.violation(in: #"{"code":"\#(code)","tags":["x"]}"#) == nil
            verdicts.withLock { $0[index] = valid }
        }
        #expect(verdicts.withLock { $0 } == (0..<64).map { $0.isMultiple(of: 2) })
    }
}
