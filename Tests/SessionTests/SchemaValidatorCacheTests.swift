import ConstrainedDecoding
import Foundation
import PartialJSON
import Synchronization
import Testing

@testable import GuidedGeneration

/// A response is checked by a validator built once per schema value, shared by every turn and
/// session that checks against an equal schema.
@Suite struct SchemaValidatorCacheTests {
    static let document = #"{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$"},"tags":{"type":"array","contains":{"const":"x"}}},"required":["code"]}"#

    @Test func equalSchemasShareOneValidator() throws {
        let validators = SchemaValidatorCache()
        let valid = try GeneratedContent(json: #"{"code":"ABC","tags":["x"]}"#)
        for _ in 0..<3 {
            // A schema read anew each time: equal values, not one instance.
            let schema = try GenerationSchema(jsonSchema: try JSONValue(parsing: Self.document), lenient: true)
            try LanguageModelSession.check(valid, against: schema, failure: "broken", validators: validators)
        }
        #expect(validators.builtCount == 1)
        let other = try GenerationSchema(jsonSchema: try JSONValue(parsing: #"{"type":"string"}"#))
        try LanguageModelSession.check(try GeneratedContent(json: #""text""#), against: other, failure: "broken", validators: validators)
        try LanguageModelSession.check(try GeneratedContent(json: #""more""#), against: other, failure: "broken", validators: validators)
        #expect(validators.builtCount == 2)
    }

    @Test func aSharedValidatorStillRefusesWhatBreaksTheSchema() throws {
        let validators = SchemaValidatorCache()
        let schema = try GenerationSchema(jsonSchema: try JSONValue(parsing: Self.document), lenient: true)
        try LanguageModelSession.check(try GeneratedContent(json: #"{"code":"ABC","tags":["x"]}"#), against: schema, failure: "broken", validators: validators)
        for json in [#"{"code":"ABC","tags":["y"]}"#, #"{"code":"abc"}"#] {
            #expect {
                try LanguageModelSession.check(try GeneratedContent(json: json), against: schema, failure: "broken", validators: validators)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.decodingFailure(let context) = error else { return false }
                return context.debugDescription.hasPrefix("broken: ")
            }
        }
        #expect(validators.builtCount == 1)
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
