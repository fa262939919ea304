@testable import ConstrainedDecoding
import Foundation
import PartialJSON
import Testing

/// A "model" of random logits, sampled under the grammar's mask with many seeds: every output it
/// can finish is a valid document for the schema, by an independent check.
@Suite struct RandomModelSamplingTests {
    static let schemasDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schemas")

    /// A byte-level vocabulary (every byte), plus multi-byte tokens as real tokenizers have.
    static let vocabulary: Vocabulary = {
        var tokens = (0...255).map { [UInt8($0)] }
        let pieces = [
            "{\"", "\":\"", "\",\"", "\"}", "\":", ",\"", "true", "false", "null", "00", "12", "the", " a", "ing", "\\n", "é", "🍳",
            "Pan", "cakes", "[\"", "\"]", "[{", "}]", "},{", "\"title\":\"", "2024-", "AB", "-1", ".5",
        ]
        tokens += pieces.map { Array($0.utf8) }
        tokens.append([])  // end of text
        return Vocabulary(tokens: tokens, specialTokens: [], endOfText: Int32(tokens.count - 1))
    }()

    @Test(arguments: ["recipe.json", "cat-profile.json", "itinerary.json", "workout-plan.json", "contacts-tool-arguments.json", "comment-thread.json", "corrected-sentence.json"])
    func sampledOutputsAreValid(file: String) throws {
        let text = try String(contentsOf: Self.schemasDirectory.appendingPathComponent(file), encoding: .utf8)
        let grammar = try CompiledGrammar(jsonSchema: text)
        let oracle = SchemaOracle(root: try JSONValue(parsing: text))
        var finished = 0
        for seed in UInt64(0)..<20 {
            let matcher = GrammarMatcher(grammar: grammar, vocabulary: Self.vocabulary)
            var sampler = SamplingChain(settings: seed % 2 == 0 ? SamplingSettings(topK: 40) : SamplingSettings(topP: 0.9), seed: seed)
            var logitsRandom = SeededRandom(seed: seed &* 7919 &+ 1)
            var mask = TokenBitset(capacity: Self.vocabulary.count)
            var output: [UInt8] = []
            var logits = [Float](repeating: 0, count: Self.vocabulary.count)
            for _ in 0..<3000 {
                for index in logits.indices { logits[index] = Float(logitsRandom.nextUnit() * 8) }
                // Strings end sooner when the quote is likelier.
                logits[Int(UInt8(ascii: "\""))] += 4
                // Favour ending once the document may end, so that most runs finish.
                if matcher.isAccepting { logits[Int(Self.vocabulary.endOfText)] = 100 }
                let token = try #require(logits.withUnsafeBufferPointer { sampler.sample(logits: $0, constraint: matcher, mask: &mask) })
                #expect(matcher.advance(token: token))
                if token == Self.vocabulary.endOfText { break }
                output += Self.vocabulary.tokens[Int(token)]
            }
            guard matcher.isTerminated else { continue }
            finished += 1
            let document = String(decoding: output, as: UTF8.self)
            let value = try JSONValue(parsing: document)
            #expect(oracle.validate(value) == nil, "\(file) seed \(seed): \(oracle.validate(value) ?? "") in \(document)")
        }
        #expect(finished > 0, "\(file): no run finished")
    }

    @Test func theSameSeedGivesTheSameTokens() throws {
        let grammar = try CompiledGrammar(jsonSchema: #"{"type":"object","properties":{"a":{"type":"string","maxLength":20},"b":{"type":"integer"}},"required":["a","b"]}"#)
        func run(seed: UInt64) -> [Int32] {
            let matcher = GrammarMatcher(grammar: grammar, vocabulary: Self.vocabulary)
            var sampler = SamplingChain(settings: SamplingSettings(temperature: 0.8, topP: 0.95), seed: seed)
            var logitsRandom = SeededRandom(seed: 42)
            var mask = TokenBitset(capacity: Self.vocabulary.count)
            var tokens: [Int32] = []
            var logits = [Float](repeating: 0, count: Self.vocabulary.count)
            while tokens.count < 200, !matcher.isTerminated {
                for index in logits.indices { logits[index] = Float(logitsRandom.nextUnit() * 6) }
                guard let token = logits.withUnsafeBufferPointer({ sampler.sample(logits: $0, constraint: matcher, mask: &mask) }) else { break }
                matcher.advance(token: token)
                tokens.append(token)
            }
            return tokens
        }
        #expect(run(seed: 3) == run(seed: 3))
        #expect(run(seed: 3) != run(seed: 4))
    }

    @Test func greedyTakesTheBestAllowedToken() {
        var sampler = SamplingChain()
        let logits: [Float] = [1, 5, 3, 4]
        var allowed = TokenBitset(capacity: 4)
        allowed.insert(2)
        allowed.insert(3)
        #expect(logits.withUnsafeBufferPointer { sampler.choose(logits: $0, allowed: nil) } == 1)
        #expect(logits.withUnsafeBufferPointer { sampler.choose(logits: $0, allowed: allowed) } == 3)
    }

    /// Min-p leaves out the tokens far less likely than the best allowed one (here 1/e³ of it,
    /// about 5%), which plain nucleus sampling picks now and then; among the allowed tokens the
    /// best one sets the bar.
    @Test func minimumRelativeProbabilityLeavesTheTailOut() {
        let logits: [Float] = [0, -3, -0.5, -9]
        func counts(minimum: Double, allowed: TokenBitset?) -> [Int] {
            var counts = [0, 0, 0, 0]
            for seed in UInt64(0)..<2000 {
                var sampler = SamplingChain(settings: SamplingSettings(minP: minimum), seed: seed)
                if let token = logits.withUnsafeBufferPointer({ sampler.choose(logits: $0, allowed: allowed) }) { counts[Int(token)] += 1 }
            }
            return counts
        }
        let plain = counts(minimum: 0, allowed: nil)
        #expect(plain[1] > 0)
        let filtered = counts(minimum: 0.1, allowed: nil)
        #expect(filtered[1] == 0 && filtered[3] == 0)
        #expect(filtered[0] > 0 && filtered[2] > 0)
        var allowed = TokenBitset(capacity: 4)
        allowed.insert(1)
        allowed.insert(3)
        let constrained = counts(minimum: 0.1, allowed: allowed)
        #expect(constrained[1] == 2000, "token 1 is the best allowed one; token 3 is 1/e^6 of it")
    }

    @Test(arguments: [
        #"{"type":"string","minLength":3,"maxLength":5}"#,
        #"{"type":"string","pattern":"^[a-z]+é?$"}"#,
        #"{"anyOf":[{"type":"string","maxLength":2},{"type":"string","minLength":4}]}"#,
        #"{"type":"object","properties":{"title":{"type":"string"}},"additionalProperties":{"type":"integer"}}"#,
        // Patterns that match anywhere in the string: any plain text keeps them alive, until a
        // length limit counts it.
        #"{"type":"string","pattern":"[0-9a-f]{2}-[0-9]"}"#,
        #"{"type":"string","pattern":"AB","maxLength":6}"#,
        #"{"type":"object","properties":{"title":{"type":"string"},"servings":{"type":"integer"}},"additionalProperties":true}"#,
    ])
    func masksMatchTokenByTokenChecksWhereCharactersAreCounted(schema: String) throws {
        let grammar = try CompiledGrammar(jsonSchema: schema)
        var random = SeededRandom(seed: 11)
        for _ in 0..<5 {
            let matcher = GrammarMatcher(grammar: grammar, vocabulary: Self.vocabulary)
            var mask = TokenBitset(capacity: Self.vocabulary.count)
            for _ in 0..<12 {
                matcher.allowedTokens(into: &mask)
                for id in 0..<Int32(Self.vocabulary.count) {
                    #expect(mask.contains(id) == matcher.canAdvance(token: id), "token \(id) in \(schema)")
                }
                let allowed = mask.ids
                guard !allowed.isEmpty else { break }
                let token = allowed[Int(random.next() % UInt64(allowed.count))]
                if token == Self.vocabulary.endOfText { break }
                matcher.advance(token: token)
            }
        }
    }

    @Test func masksMatchTokenByTokenChecks() throws {
        let grammar = try CompiledGrammar(jsonSchema: String(contentsOf: Self.schemasDirectory.appendingPathComponent("recipe.json"), encoding: .utf8))
        let matcher = GrammarMatcher(grammar: grammar, vocabulary: Self.vocabulary)
        var mask = TokenBitset(capacity: Self.vocabulary.count)
        for piece in ["{\"title\":\"", "Pan", "cakes", "\",\"servings\":", "12", ",\"ingredients\":[{\"name\":\"egg\""] {
            matcher.allowedTokens(into: &mask)
            for id in 0..<Int32(Self.vocabulary.count) {
                #expect(mask.contains(id) == matcher.canAdvance(token: id), "token \(id) after \(piece)")
            }
            #expect(matcher.advance(bytes: Array(piece.utf8)))
        }
        #expect(matcher.forcedBytes() == Array(",\"quantity\":\"".utf8))
    }
}
