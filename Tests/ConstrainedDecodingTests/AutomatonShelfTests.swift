@testable import ConstrainedDecoding
import Testing

/// Matchers of one grammar pass on what they built: the next matcher over the same vocabulary
/// starts with their automaton states and masks, and its masks are those of a fresh matcher.
@Suite struct AutomatonShelfTests {
    static let schema = #"{"type":"object","properties":{"name":{"type":"string","maxLength":200},"tags":{"type":"array","items":{"enum":["red","green"]}}},"required":["name"]}"#
    static let document = Array(#"{"name":"a long name, written out","tags":["red","green"]}"#.utf8)

    static func vocabulary(extra: [[UInt8]] = []) -> Vocabulary {
        let pieces = [#"{""#, #"":"#, #"",""#, #"":[""#, "name", "tags", "red", "green", #""]}"#, " long", " name"].map { Array($0.utf8) }
        let tokens = (0...255).map { [UInt8($0)] } + pieces + extra + [[]]
        return Vocabulary(tokens: tokens, specialTokens: [], endOfText: Int32(tokens.count - 1))
    }

    /// The masks at each byte of ``document``, and the automaton's size at the end.
    static func walk(_ matcher: GrammarMatcher, _ vocabulary: Vocabulary) -> (masks: [[Int32]], states: Int) {
        let masks = matcher.masks(along: document, vocabularySize: vocabulary.count)
        return (masks, matcher.automatonStateCount)
    }

    @Test func aLaterMatcherStartsWithWhatAnEarlierOneBuilt() throws {
        let grammar = try CompiledGrammar(jsonSchema: Self.schema)
        let vocabulary = Self.vocabulary()
        let first = Self.walk(GrammarMatcher(grammar: grammar, vocabulary: vocabulary), vocabulary)
        let fresh = GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: Self.schema), vocabulary: vocabulary).automatonStateCount
        let second = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
        #expect(second.automatonStateCount == first.states)
        #expect(second.automatonStateCount > fresh)
        // Its masks, read from what the first left, are the ones the first computed.
        #expect(Self.walk(second, vocabulary).masks == first.masks)
    }

    @Test func matchersAtTheSameTimeOrOverAnotherVocabularyStartFresh() throws {
        let grammar = try CompiledGrammar(jsonSchema: Self.schema)
        let vocabulary = Self.vocabulary()
        let fresh = GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: Self.schema), vocabulary: vocabulary).automatonStateCount
        _ = Self.walk(GrammarMatcher(grammar: grammar, vocabulary: vocabulary), vocabulary)
        let other = Self.vocabulary(extra: [Array("red\"".utf8)])
        let overOther = GrammarMatcher(grammar: grammar, vocabulary: other)
        #expect(overOther.automatonStateCount == fresh)
        let taking = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
        let meanwhile = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
        #expect(taking.automatonStateCount > fresh)
        #expect(meanwhile.automatonStateCount == fresh)
        // Over the other vocabulary, masks hold its own tokens.
        let masks = Self.walk(overOther, other).masks
        #expect(masks.contains { $0.contains(Int32(other.count - 2)) })
    }
}
