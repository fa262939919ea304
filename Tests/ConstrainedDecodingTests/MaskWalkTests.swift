@testable import ConstrainedDecoding
import Foundation
import Testing

/// Mask walks that take subtrees whole by their characters' groups, or start from every token and
/// remove the refused ones: the masks hold exactly the tokens that the matcher accepts one by one.
@Suite struct MaskWalkTests {
    /// A vocabulary with subtrees of some size under every letter: words and their capitalized and
    /// spaced spellings, numbers, punctuation, characters of two, three and four bytes (U+2028
    /// among them), partial characters, and tokens with quotes and escapes.
    static let vocabulary: (vocabulary: Vocabulary, tokens: [[UInt8]]) = {
        let syllables = ["ar", "bar", "ba", "en", "foo", "fo", "in", "on", "ter", "ion", "ed", "ing", "er", "an", "re", "X_", "x", "_y", "-z", "~0", "~1", "~"]
        var texts = Set<String>()
        for first in "abcdefghijklmnopqrstuvwxyz" {
            for syllable in syllables {
                for word in ["\(first)\(syllable)", "\(first)\(syllable)\(syllables[syllable.count % syllables.count])"] {
                    texts.formUnion([word, word.capitalized, " " + word, "/" + word, word + "@", word + ".", word + "\",", word + "\"}"])
                }
            }
        }
        texts.formUnion((0..<200).map { "\($0)" } + (0..<50).map { " \($0)" })
        texts.formUnion(["é", "été", "日本", "日本語", "\u{2028}", "a\u{2028}b", "→", "→x", "😀", "a😀", "{", "}", "{term", "term}", ":", "://", "\\n", "\\\"", "\"", "\":"])
        // Plain text then something else: a control character, an escape (whole or cut short),
        // a quote and what follows a string; the walks by rest read these from their first byte
        // that is not plain text.
        texts.formUnion(["ab\n", "foo\t", "foo\\n", "foo\\", "x\\u00e9", "x\\u00", "é\"}", "日本\\\"", "bar\"]", "a\u{2028}\"", "in\":\""])
        var tokens = (0...255).map { [UInt8($0)] } + texts.sorted().map { Array($0.utf8) }
        // Partial characters: the first two bytes of 日 and of U+2028.
        tokens += [[0xE6, 0x97], [0xE2, 0x80], [0x80, 0xA8]]
        tokens.append([])
        return (Vocabulary(tokens: tokens, specialTokens: [], endOfText: Int32(tokens.count - 1)), tokens)
    }()

    /// Each schema, with documents whose every prefix's mask is checked.
    static let cases: [(schema: String, documents: [String])] = [
        (#"{"patternProperties":{"^.*bar$":{"type":"null"}}}"#, [#"{"foobar":null,"x→bar":null}"#, #"{"日本bar":null}"#]),
        (#"{"patternProperties":{"f.*":true,"b.*":false}}"#, [#"{"foo":1,"en":2}"#]),
        (#"{"patternProperties":{"[0-9]{2,}":{"type":"boolean"},"X_":{"type":"string"}}}"#, [#"{"answer 1":"42","a12":true}"#]),
        (#"{"type":"string","pattern":"^(/([^~/]|~[01])*)*$"}"#, [#""/foo/bar~0/日本""#]),
        (#"{"type":"string","pattern":"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9-]+(\\.[a-z0-9-]+)*$"}"#, [#""joe.bar@example.com""#]),
        (#"{"type":"string","pattern":"^[a-z]+$"}"#, [#""foobar""#]),
        (#"{"type":"string","pattern":"^.*$"}"#, [#""any →text 😀 here""#]),
        (#"{"type":"string","pattern":"^[^\"]*\\{[a-z]+\\}.*$"}"#, [#""http://x/{term}/y""#]),
        (#"{"type":"string","pattern":"^[^b~]*$"}"#, [#""foo 日本 x→""#]),
        (#"{"type":"string","pattern":"^(x.*|[^b]*)$"}"#, [#""xbab""#, #""foo""#]),
        (#"{"type":"string","pattern":"^[^bé]*$"}"#, [#""foo 日本""#]),
        // Strings of counted characters, whose contents are shared: the second string of each
        // count starts from the masks of the first, up to its last allowed character.
        (
            #"{"type":"object","properties":{"a":{"type":"string","maxLength":34},"b":{"type":"array","items":{"type":"string","maxLength":34}},"c":{"type":"string","minLength":40}},"additionalProperties":false}"#,
            [#"{"a":"foo bar","b":["foo","abcdefghij日本語 →😀 x\n\"1234567890123"],"c":"abcdefghijklmnopqrstuvwxyz0123456789 foo bar"}"#]
        ),
    ]

    /// Free strings, where every plain-text character leads back to the same state: the tokens
    /// that are not plain text are walked by their rests.
    static let freeStrings: [(schema: String, documents: [String])] = [
        (
            #"{"type":"object","properties":{"s":{"type":"string"},"t":{"type":"array","items":{"type":"string"}}}}"#,
            [#"{"s":"foo\n\"bar\" \u001f 日本 →","t":["in","x\\y",""]}"#, #"{"s":"ab\u0007","t":["a\tb"]}"#]
        ),
        (#"{"type":"string"}"#, [#""ab\nfoo\\ 日本\" x""#]),
    ]

    @Test(arguments: 0..<(cases.count + freeStrings.count))
    func masksHoldExactlyTheAcceptedTokens(_ index: Int) throws {
        let (vocabulary, tokens) = Self.vocabulary
        let (schema, documents) = index < Self.cases.count ? Self.cases[index] : Self.freeStrings[index - Self.cases.count]
        let grammar = try CompiledGrammar(jsonSchema: schema, options: CompileOptions(extraProperties: .allow))
        var mask = TokenBitset(capacity: vocabulary.count)
        var steps = 0
        var loopingSteps = 0
        for document in documents {
            let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
            // This vocabulary's subtrees are small: searched all the same.
            matcher.groupSearchSubtree = 16
            for byte in Array(document.utf8) {
                matcher.allowedTokens(into: &mask)
                steps += 1
                if matcher.automaton.dfa.plainTextTarget(matcher.state) == matcher.state { loopingSteps += 1 }
                for id in 0..<Int32(vocabulary.count) where mask.contains(id) != matcher.canAdvance(token: id) {
                    Issue.record("\(schema): token \(tokens[Int(id)]) after \(matcher.state), mask says \(mask.contains(id))")
                }
                #expect(matcher.advance(bytes: [byte]), "\(schema): \(document) refused")
            }
        }
        #expect(steps == documents.reduce(0) { $0 + $1.utf8.count })
        if index >= Self.cases.count { #expect(loopingSteps > 0, "\(schema): no state where plain text loops") }
    }

    /// The groups that cannot lead out of a state: letters inside a JSON pointer's segment but not
    /// `~`, which must be followed by 0 or 1; none in a name where `b` is refused (a lowercase
    /// letter refused at once);
    /// every group in a string matched against `^.*bar$`, and in a name matched against it when
    /// names must match (`.` refuses U+2028 and U+2029, which are not plain text).
    @Test func safeGroupsFollowWhatThePatternRefuses() throws {
        func safeGroups(_ schema: String, after text: String) throws -> UInt16 {
            let matcher = try Self.matcher(schema, options: CompileOptions(extraProperties: .allow), after: text)
            return matcher.automaton.dfa.safeGroups(matcher.state)
        }
        func bit(_ character: Character) -> UInt16 { 1 << UInt16(CharacterGroups.groupOfLead[Int(character.utf8.first ?? 0)]) }
        let pointer = try safeGroups(#"{"type":"string","pattern":"^(/([^~/]|~[01])*)*$"}"#, after: #""/fo"#)
        #expect(pointer & bit("a") != 0 && pointer & bit("Z") != 0 && pointer & bit("~") == 0)
        let refused = try safeGroups(#"{"patternProperties":{"b.*":false}}"#, after: #"{"fo"#)
        #expect(refused == 0)
        let suffix = try safeGroups(#"{"type":"string","pattern":"^.*bar$"}"#, after: #""x"#)
        #expect(suffix == UInt16.max)
        let matcher = try Self.matcher(#"{"patternProperties":{"^.*bar$":{"type":"null"}}}"#, after: #"{"x"#)
        #expect(matcher.automaton.dfa.safeGroups(matcher.state) == UInt16.max)
        #expect(!matcher.canAdvance(bytes: Array("\u{2028}".utf8)) && matcher.canAdvance(bytes: Array("→bar".utf8)))
    }

    /// In a name that `"b.*": false` forbids to hold a `b`, before and after an `f` (which `"f.*"`
    /// matches), plain text goes on but for `b`, so the plain-text tokens without one are allowed
    /// whole; not where a string may hold a `b` after an `x`, nor where a multibyte character is
    /// refused, nor outside strings.
    @Test func refusedCharactersAreFound() throws {
        func refusals(_ schema: String, after text: String) throws -> [UInt8]? {
            let matcher = try Self.matcher(schema, options: CompileOptions(extraProperties: .allow), after: text)
            return matcher.automaton.dfa.plainTextRefusals(matcher.state)
        }
        let names = #"{"patternProperties":{"f.*":true,"b.*":false}}"#
        #expect(try refusals(names, after: #"{""#) == [UInt8(ascii: "b")])
        #expect(try refusals(names, after: #"{"xf"#) == [UInt8(ascii: "b")])
        #expect(try refusals(#"{"type":"string","pattern":"^[^b~]*$"}"#, after: #"""#) == [UInt8(ascii: "b"), UInt8(ascii: "~")])
        #expect(try refusals(#"{"type":"string","pattern":"^(x.*|[^b]*)$"}"#, after: #"""#) == nil)
        #expect(try refusals(#"{"type":"string","pattern":"^[^bé]*$"}"#, after: #"""#) == nil)
        #expect(try refusals(names, after: "") == nil)
    }

    /// In a pattern's `.*`, every plain-text character leads back to the same state, so a walk
    /// takes plain-text subtrees whole there; U+2028 and U+2029 are refused.
    @Test func dotLoopsOnPlainText() throws {
        let matcher = try Self.matcher(#"{"type":"string","pattern":"^a.*$"}"#, after: #""ab"#)
        #expect(matcher.automaton.dfa.plainTextTarget(matcher.state) == matcher.state)
        #expect(!matcher.canAdvance(bytes: Array("\u{2029}".utf8)) && matcher.canAdvance(bytes: Array("é→日😀\u{2027}\u{202A}".utf8)))
        #expect(!VocabularyIndex.isPlainText(Array("a\u{2028}".utf8)) && VocabularyIndex.isPlainText(Array("a\u{2027}\u{202A}".utf8)))
    }

    /// A matcher of `schema` over the test vocabulary, after `text`.
    static func matcher(_ schema: String, options: CompileOptions = CompileOptions(), after text: String) throws -> GrammarMatcher {
        let matcher = GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: schema, options: options), vocabulary: vocabulary.vocabulary)
        #expect(matcher.advance(bytes: Array(text.utf8)), "\(schema): \(text) refused")
        return matcher
    }

    /// Every plain-text ASCII character has a group, and only those do among ASCII.
    @Test func everyPlainTextCharacterHasAGroup() {
        for byte in 0..<0x80 {
            let plain = byte >= 0x20 && byte != 0x22 && byte != 0x5C
            #expect((CharacterGroups.groupOfLead[byte] != CharacterGroups.none) == plain, "byte \(byte)")
        }
        #expect(Set(CharacterGroups.byRarity) == Set(0..<CharacterGroups.count))
    }
}
