@testable import ConstrainedDecoding
import PartialJSON
import Testing

/// `uniqueItems` over strings, checked by the matcher as items end.
@Suite struct UniqueItemsTests {
    static let strings = #"{"type":"array","items":{"type":"string"},"uniqueItems":true}"#

    func matcher(_ schema: String, _ vocabulary: Vocabulary? = nil, options: CompileOptions = CompileOptions()) throws -> GrammarMatcher {
        GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: schema, options: options), vocabulary: vocabulary)
    }

    func accepts(_ schema: String, _ document: String, options: CompileOptions = CompileOptions()) throws -> Bool {
        try matcher(schema, options: options).accepts(document: Array(document.utf8))
    }

    @Test func repeatedStringsAreRefused() throws {
        #expect(try accepts(Self.strings, #"[]"#))
        #expect(try accepts(Self.strings, #"["a","b","ab","ba",""]"#))
        #expect(try !accepts(Self.strings, #"["a","a"]"#))
        #expect(try !accepts(Self.strings, #"["a","b","a"]"#))
        #expect(try !accepts(Self.strings, #"["é","😀","é"]"#))
        #expect(try accepts(Self.strings, #"["😀","😁"]"#))
        #expect(try !accepts(Self.strings, #"["a\"b","a\"b"]"#))
        #expect(try accepts(Self.strings, #"["\u0001","\u0002"]"#))
        #expect(try !accepts(Self.strings, #"["\u0001","\u0001"]"#))
        #expect(try accepts(Self.strings, #"["a\\","a"]"#))
        let flexible = CompileOptions(whitespace: .flexible(maximum: 4))
        #expect(try accepts(Self.strings, #"[ "a" ,  "b" ]"#, options: flexible))
        #expect(try !accepts(Self.strings, #"[ "a" ,  "a" ]"#, options: flexible))
    }

    @Test func eachArrayIsCheckedOnItsOwn() throws {
        let nested = #"{"type":"array","items":\#(Self.strings)}"#
        #expect(try accepts(nested, #"[["a","b"],["a","b"]]"#))
        #expect(try !accepts(nested, #"[["a","b"],["b","b"]]"#))
        let members = #"{"type":"object","properties":{"x":\#(Self.strings),"y":\#(Self.strings)}}"#
        #expect(try accepts(members, #"{"x":["a"],"y":["a"]}"#))
        #expect(try !accepts(members, #"{"x":["a"],"y":["b","b"]}"#))
    }

    @Test func anAlternativeWithoutTheCheckStillAcceptsRepeats() throws {
        let schema = #"{"anyOf":[\#(Self.strings),{"type":"array","items":{"type":"string","maxLength":1}}]}"#
        #expect(try accepts(schema, #"["a","a"]"#))
        #expect(try accepts(schema, #"["ab","cd"]"#))
        #expect(try !accepts(schema, #"["ab","ab"]"#))
        let prefixed = #"{"type":"array","prefixItems":[{"const":"x"}],"items":{"enum":["a","b","c","d","e","f","g","h","x"]},"uniqueItems":true}"#
        #expect(try accepts(prefixed, #"["x","a"]"#))
        #expect(try !accepts(prefixed, #"["x","a","x"]"#))
    }

    @Test func masksLeaveOutTokensThatCanOnlyRepeat() throws {
        let pieces = [#""ab""#, #""ab"#, #""a"#, #""b""#, #"b""#, #""],"#].map { Array($0.utf8) }
        let tokens = (0...255).map { [UInt8($0)] } + pieces + [[]]
        let vocabulary = Vocabulary(tokens: tokens, specialTokens: [], endOfText: Int32(tokens.count - 1))
        func id(_ text: String) -> Int32 { Int32(tokens.firstIndex(of: Array(text.utf8))!) }
        let short = try matcher(#"{"type":"array","items":{"type":"string","maxLength":2},"uniqueItems":true}"#, vocabulary)
        var mask = TokenBitset(capacity: vocabulary.count)
        #expect(short.advance(bytes: Array(#"["ab","#.utf8)))
        short.allowedTokens(into: &mask)
        #expect(!mask.contains(id(#""ab""#)))
        #expect(!mask.contains(id(#""ab"#)))
        #expect(mask.contains(id(#""a"#)))
        #expect(mask.contains(id(#""b""#)))
        #expect(short.advance(token: id(#""a"#)))
        short.allowedTokens(into: &mask)
        #expect(!mask.contains(id(#"b""#)))
        #expect(!mask.contains(id("b")))
        #expect(mask.contains(id(#"""#)))
        #expect(!short.advance(token: id(#"b""#)))
        // Rolled back, the array holds one item again.
        short.rollback(1)
        #expect(short.advance(token: id(#""b""#)))
        #expect(short.advance(bytes: Array("]".utf8)))
        #expect(short.isAccepting)
        short.rollback(2)
        short.allowedTokens(into: &mask)
        #expect(!mask.contains(id(#""ab""#)))
    }

    @Test func forcedTextStopsBeforeARepeat() throws {
        let schema = #"{"type":"array","items":{"type":"string","pattern":"^(ab|ac)$"},"uniqueItems":true,"minItems":2}"#
        let matcher = try matcher(schema)
        #expect(matcher.advance(bytes: Array(#"["ab",""#.utf8)))
        #expect(matcher.forcedBytes() == Array("a".utf8))
        #expect(matcher.advance(bytes: Array("a".utf8)))
        #expect(!matcher.canAdvance(bytes: Array(#"b""#.utf8)))
        #expect(matcher.canAdvance(bytes: Array(#"c"]"#.utf8)))
    }

    /// Random logits sampled under the mask, over a language of six items of which the array must
    /// hold four to six: the mask never leads where no distinct item can follow.
    @Test func sampledArraysNeverRepeatOrGetStuck() throws {
        let pieces = [#""a"#, #"a""#, #""ab""#, #"",""#, #""b"#, #"b","#, #"a","#, "ab", #"]"#].map { Array($0.utf8) }
        let tokens = (0...255).map { [UInt8($0)] } + pieces + [[]]
        let vocabulary = Vocabulary(tokens: tokens, specialTokens: [], endOfText: Int32(tokens.count - 1))
        let grammar = try CompiledGrammar(
            jsonSchema: #"{"type":"array","items":{"type":"string","pattern":"^[ab]{1,2}$"},"uniqueItems":true,"minItems":4,"maxItems":6}"#)
        for seed in UInt64(0)..<40 {
            let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
            var sampler = SamplingChain(settings: SamplingSettings(topK: 20), seed: seed)
            var logitsRandom = SeededRandom(seed: seed &* 31 &+ 7)
            var mask = TokenBitset(capacity: vocabulary.count)
            var logits = [Float](repeating: 0, count: vocabulary.count)
            var output: [UInt8] = []
            while !matcher.isTerminated, output.count < 200 {
                for index in logits.indices { logits[index] = Float(logitsRandom.nextUnit() * 8) }
                for index in 256..<tokens.count - 1 { logits[index] += 6 }
                let token = try #require(logits.withUnsafeBufferPointer { sampler.sample(logits: $0, constraint: matcher, mask: &mask) }, "seed \(seed) stuck after \(String(decoding: output, as: UTF8.self))")
                #expect(matcher.advance(token: token))
                output += vocabulary.tokens[Int(token)]
            }
            #expect(matcher.isTerminated)
            guard case .array(let items) = try JSONValue(parsing: String(decoding: output, as: UTF8.self)) else {
                Issue.record("seed \(seed): not an array")
                continue
            }
            #expect((4...6).contains(items.count))
            #expect(Set(items.map { "\($0)" }).count == items.count, "seed \(seed): \(String(decoding: output, as: UTF8.self))")
        }
    }

    /// Random arrays of short strings over a few characters, escapes among them, against the
    /// validator's reading of the same text: accepted exactly when the items are distinct.
    @Test func randomArraysAgreeWithTheValidator() throws {
        let pieces = ["a", "b", "é", "\\\"", "\\\\", "\\n", "🍳"]
        let schema = #"{"type":"array","items":{"type":"string","maxLength":3},"uniqueItems":true}"#
        let matcher = try matcher(schema)
        let validator = try SchemaValidator(jsonSchema: schema)
        var random = SeededRandom(seed: 11)
        var repeats = 0
        for _ in 0..<2000 {
            let items = (0..<Int(random.next() % 5)).map { _ in
                "\"" + (0..<Int(random.next() % 3)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() + "\""
            }
            let document = "[" + items.joined(separator: ",") + "]"
            let isValid = validator.violation(in: document) == nil
            if !isValid { repeats += 1 }
            #expect(matcher.accepts(document: Array(document.utf8)) == isValid, "\(document)")
        }
        #expect(repeats > 100)
    }
}
