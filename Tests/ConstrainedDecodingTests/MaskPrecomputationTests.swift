@testable import ConstrainedDecoding
import Testing

/// Masks precomputed with the grammar, and masks shared by the states of one string interior, are
/// the masks a matcher computes at their first use.
@Suite struct MaskPrecomputationTests {
    static let schema = #"""
        {"type":"object","properties":{"email":{"type":"string","format":"email"},"code":{"type":"string","pattern":"^[a-z ]+-[0-9]{2}$"},
        "id":{"type":"string","pattern":"^[0-9a-f]{4}$"},
        "tags":{"type":"object","patternProperties":{"^x-[a-z]+$":{"type":"string","format":"uri"}},"additionalProperties":false},
        "backup":{"type":"array","items":{"type":"string","format":"email"}}},
        "required":["email","code","id","tags","backup"]}
        """#
    static let document = Array(
        #"{"email":"jo.doe@example.com","code":"ab cd-12","id":"12ab","tags":{"x-home":"https://example.com/a?b=c"},"backup":["jo@example.com","doe@example.com"]}"#.utf8)

    static func vocabulary() -> Vocabulary {
        let pieces = [
            #"{""#, #"":""#, #"",""#, "email", "jo", ".doe", "@", "example", ".com", "ab", " cd", "-1", "2", #""}}"#, "x-", "home", "https",
            "://", "/a", "?b=", "c", "ab\"", "com\",", "A-Z", "é", "é\"", "12", "com\"]", "doe", "\\u0041",
        ].map { Array($0.utf8) }
        let tokens = (0...255).map { [UInt8($0)] } + pieces + [[]]
        return Vocabulary(tokens: tokens, specialTokens: [], endOfText: Int32(tokens.count - 1))
    }

    /// Objects whose member names a pattern or `propertyNames` constrains, the same in two places.
    static let namesSchema = #"""
        {"type":"object","properties":{"tags":{"$ref":"#/$defs/tags"},
        "more":{"type":"object","patternProperties":{"^x-[a-z]+$":{"type":"integer"}},"additionalProperties":false},
        "codes":{"type":"object","propertyNames":{"pattern":"^[a-z]{2}-[0-9]+$"},"additionalProperties":{"type":"integer"}},
        "mixed":{"type":"object","properties":{"x-fixed":{"type":"integer"}},"patternProperties":{"^x-[a-z]+$":{"type":"integer"}},"additionalProperties":false}},
        "required":["tags","more","codes","mixed"],
        "$defs":{"tags":{"type":"object","patternProperties":{"^x-[a-z]+$":{"type":"string","format":"uri"}},"additionalProperties":false}}}
        """#
    static let namesDocument = Array(
        #"{"tags":{"x-home":"https://example.com/a?b=c","x-doe":"https://c"},"more":{"x-ab":12},"codes":{"ab-12":1,"cd-2":2},"mixed":{"x-fixed":2,"x-doe":3}}"#.utf8)

    /// The masks at each byte of `document` (``document`` by default).
    static func masks(_ matcher: GrammarMatcher, _ vocabulary: Vocabulary, document: [UInt8] = document) -> [[Int32]] {
        matcher.masks(along: document, vocabularySize: vocabulary.count)
    }

    /// The string interior of the state `matcher` reaches from its start through `text`.
    static func interior(of matcher: GrammarMatcher, after text: String) -> Int32? {
        matcher.reset()
        #expect(matcher.advance(bytes: Array(text.utf8)))
        return matcher.automaton.dfa.stringInterior(matcher.state)
    }

    /// Expects `schema`'s precomputed masks to keep some and to be, along `document`, those
    /// computed at first use, which it returns.
    static func expectPrecomputedMasksAreTheLazyOnes(_ schema: String, along document: [UInt8], _ vocabulary: Vocabulary) throws -> [[Int32]] {
        let lazy = masks(GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: schema), vocabulary: vocabulary), vocabulary, document: document)
        let grammar = try CompiledGrammar(jsonSchema: schema)
        #expect(grammar.precomputeMasks(for: vocabulary).masksKept > 0)
        #expect(masks(GrammarMatcher(grammar: grammar, vocabulary: vocabulary), vocabulary, document: document) == lazy)
        return lazy
    }

    @Test func precomputedMasksAreTheLazyOnes() throws {
        let vocabulary = Self.vocabulary()
        let lazy = Self.masks(GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: Self.schema), vocabulary: vocabulary), vocabulary)
        let grammar = try CompiledGrammar(jsonSchema: Self.schema)
        let precomputed = grammar.precomputeMasks(for: vocabulary)
        #expect(precomputed.masksKept > 0)
        #expect(precomputed.statesVisited > precomputed.masksKept)
        let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
        #expect(matcher.automatonStateCount >= precomputed.statesVisited)
        #expect(Self.masks(matcher, vocabulary) == lazy)
    }

    @Test func aBudgetLeavesTheRestToFirstUse() throws {
        let vocabulary = Self.vocabulary()
        let lazy = Self.masks(GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: Self.schema), vocabulary: vocabulary), vocabulary)
        let grammar = try CompiledGrammar(jsonSchema: Self.schema)
        let precomputed = grammar.precomputeMasks(for: vocabulary, budget: MaskPrecomputationBudget(walksPerString: 1, grammarStates: 4, fullWalks: 1, states: 40))
        #expect(!precomputed.isComplete)
        #expect(precomputed.statesVisited <= 40)
        #expect(Self.masks(GrammarMatcher(grammar: grammar, vocabulary: vocabulary), vocabulary) == lazy)
    }

    @Test func statesOfOneStringContentsShareTheirInterior() throws {
        let vocabulary = Self.vocabulary()
        let grammar = try CompiledGrammar(jsonSchema: Self.schema)
        let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
        func interior(after text: String) -> Int32? { Self.interior(of: matcher, after: text) }
        let prefix = #"{"email":"jo.doe@example.com","code":"ab cd-12","id":"12ab","tags":{"x-home":"https://example.com/a?b=c"},"backup":["#
        let first = interior(after: #"{"email":"jo.d"#)
        #expect(first != nil)
        // The same contents in an array item, first or after another item.
        #expect(interior(after: prefix + #""jo.d"#) == first)
        #expect(interior(after: prefix + #""a@b.c","jo.d"#) == first)
        // Another pattern, and a state outside strings, have none of it.
        #expect(interior(after: #"{"email":"jo.doe@example.com","code":"ab"#) != first)
        #expect(interior(after: #"{"email":"jo.doe@example.com","#) == nil)
    }

    /// Strings whose lengths alone are constrained, in several places: one contents per count.
    static let countedSchema = #"""
        {"type":"object","properties":{"name":{"type":"string","maxLength":255},"note":{"type":"string","maxLength":255},
        "tags":{"type":"array","items":{"type":"string","minLength":1,"maxLength":40}},
        "more":{"type":"object","properties":{"text":{"type":"string","maxLength":255}},"required":["text"]}},
        "required":["name","note","tags","more"]}
        """#
    static let countedDocument = Array(#"{"name":"jo.doe","note":"ab cd-12","tags":["x-home","é\"12"],"more":{"text":"https://example.com"}}"#.utf8)

    @Test func precomputedMasksOfCountedStringsAreTheLazyOnes() throws {
        _ = try Self.expectPrecomputedMasksAreTheLazyOnes(Self.countedSchema, along: Self.countedDocument, Self.vocabulary())
    }

    @Test func countedStringsOfOneCountShareTheirInterior() throws {
        let vocabulary = Self.vocabulary()
        let matcher = GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: Self.countedSchema), vocabulary: vocabulary)
        func interior(after text: String) -> Int32? { Self.interior(of: matcher, after: text) }
        let first = interior(after: #"{"name":"jo"#)
        #expect(first != nil)
        // The same count in another member, and in a nested object.
        #expect(interior(after: #"{"name":"","note":"ab"#) == first)
        #expect(interior(after: #"{"name":"","note":"","tags":[],"more":{"text":"xy"#) == first)
        // Another position, and another count, have interiors of their own.
        #expect(interior(after: #"{"name":"j"#) != first)
        #expect(interior(after: #"{"name":"","note":"","tags":["ab"#) != first)
        // Plain text runs alike from states of one interior.
        matcher.reset()
        #expect(matcher.advance(bytes: Array(#"{"name":"","note":"","tags":[],"more":{"text":""#.utf8)))
        #expect(matcher.automaton.dfa.plainTextRun(matcher.state) == vocabulary.index.longestPlainText)
    }

    @Test func precomputedMasksOfMemberNamesAreTheLazyOnes() throws {
        let vocabulary = Self.vocabulary()
        let lazy = try Self.expectPrecomputedMasksAreTheLazyOnes(Self.namesSchema, along: Self.namesDocument, vocabulary)
        // A budget that stops inside the names' contents changes nothing either.
        let limited = try CompiledGrammar(jsonSchema: Self.namesSchema)
        limited.precomputeMasks(for: vocabulary, budget: MaskPrecomputationBudget(walksPerString: 1, grammarStates: 2, fullWalks: 1, states: 12))
        #expect(Self.masks(GrammarMatcher(grammar: limited, vocabulary: vocabulary), vocabulary, document: Self.namesDocument) == lazy)
    }

    @Test func memberNamesOfOnePatternShareTheirInterior() throws {
        let vocabulary = Self.vocabulary()
        let matcher = GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: Self.namesSchema), vocabulary: vocabulary)
        func interior(after text: String) -> Int32? { Self.interior(of: matcher, after: text) }
        let first = interior(after: #"{"tags":{"x-h"#)
        #expect(first != nil)
        // The same names after another member, and in another object whose values differ.
        #expect(interior(after: #"{"tags":{"x-home":"https://c","x-h"#) == first)
        #expect(interior(after: #"{"tags":{},"more":{"x-h"#) == first)
        // Names that `propertyNames` constrains have an interior of their own.
        let codes = interior(after: #"{"tags":{},"more":{},"codes":{"ab"#)
        #expect(codes != nil)
        #expect(codes != first)
        // Where a listed name may still be spelt, its other states read more than the quote.
        #expect(interior(after: #"{"tags":{},"more":{},"codes":{},"mixed":{"x-"#) == nil)
        let mixed = interior(after: #"{"tags":{},"more":{},"codes":{},"mixed":{"x-d"#)
        #expect(mixed != nil)
        #expect(mixed != first)
    }
}
