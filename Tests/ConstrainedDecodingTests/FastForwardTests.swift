import ConstrainedDecoding
import Testing

/// Fast-forward on the tokenizer's own boundaries: what the grammar forces is written as the
/// tokenizer writes it when the model's text goes on, never ending on a token that a longer one
/// would cross, nor on a split that the next character changes.
struct FastForwardTests {
    /// Every printable ASCII character and the line break as tokens, and some longer ones.
    static let spellings = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) } + [
        "\n", "{\"", "\":\"", "\":", "\",", "\"}", "},", "true", "   ", "    ", " \"", ",\n",
    ]
    static let vocabulary = Vocabulary(tokens: spellings.map { Array($0.utf8) } + [[]], specialTokens: [], endOfText: Int32(spellings.count))

    static func id(_ spelling: String) -> Int32 { Int32(spellings.firstIndex(of: spelling) ?? -1) }

    /// The longest token at each step, within each piece of a split that gives the last space of a
    /// run of whitespace to the character after it, as byte-level pre-tokenizers do.
    static func tokenize(_ text: String) -> [Int32] {
        var pieces: [String] = []
        var piece = ""
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if character.isWhitespace, let next = characters.first, !next.isWhitespace, !piece.isEmpty,
                piece.allSatisfy(\.isWhitespace), character == " "
            {
                pieces.append(piece)
                piece = " "
                continue
            }
            if !character.isWhitespace, !piece.isEmpty, piece.allSatisfy(\.isWhitespace), piece != " " {
                pieces.append(piece)
                piece = ""
            }
            if character.isWhitespace, !piece.isEmpty, !piece.allSatisfy(\.isWhitespace) {
                pieces.append(piece)
                piece = ""
            }
            piece.append(character)
        }
        pieces.append(piece)
        var tokens: [Int32] = []
        for piece in pieces where !piece.isEmpty {
            var rest = Substring(piece)
            while !rest.isEmpty {
                let longest = spellings.filter { rest.hasPrefix($0) }.max { $0.count < $1.count } ?? String(rest.prefix(1))
                tokens.append(id(longest))
                rest = rest.dropFirst(longest.count)
            }
        }
        return tokens
    }

    static func matcher(_ schema: String, _ whitespace: CompileOptions.Whitespace = .compact) throws -> GrammarMatcher {
        GrammarMatcher(grammar: try CompiledGrammar(jsonSchema: schema, options: CompileOptions(whitespace: whitespace)), vocabulary: vocabulary)
    }

    @Test func theTokenizerSplitsARunOfSpacesBeforeAWord() {
        #expect(Self.tokenize("\n    t") == ["\n", "   ", " ", "t"].map(Self.id))
        #expect(Self.tokenize("\n    ") == ["\n", "    "].map(Self.id))
    }

    /// `":"` is held back: `"` could start `",`, as the string's first character may be a comma.
    @Test func aQuoteThatALongerTokenCouldCrossIsLeftToTheModel() throws {
        let matcher = try Self.matcher(
            #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"boolean"}},"required":["a","b"],"additionalProperties":false}"#)
        #expect(matcher.fastForwardTokens(after: nil, tokenize: Self.tokenize) == ["{\"", "a"].map(Self.id))
        #expect(matcher.forcedBytes() == Array("\":\"".utf8))
        for spelling in ["\":\"", "x", "\""] { #expect(matcher.advance(token: Self.id(spelling))) }
        // After a lone quote, `",` cannot be written: the comma is tokenized on its own.
        #expect(matcher.fastForwardTokens(after: Self.id("\""), tokenize: Self.tokenize) == [",", "\"", "b", "\":"].map(Self.id))
    }

    /// After `true`, the `}` that ends an item is left to the model, which may write `},`.
    @Test func aBracketBeforeAChoiceIsLeftToTheModel() throws {
        let matcher = try Self.matcher(
            #"{"type":"array","items":{"type":"object","properties":{"n":{"type":"boolean"}},"required":["n"],"additionalProperties":false}}"#)
        #expect(matcher.advance(bytes: Array("[{\"n\":".utf8)))
        #expect(matcher.advance(token: Self.id("true")))
        #expect(matcher.forcedBytes() == Array("}".utf8))
        #expect(matcher.fastForwardTokens(after: Self.id("true"), tokenize: Self.tokenize).isEmpty)
        #expect(matcher.advance(token: Self.id("},")))
    }

    /// Indentation before an item: the tokenizer gives the run's last space to the item, so the
    /// run is not forced as one token.
    @Test func indentationBeforeAValueIsNotForcedWhole() throws {
        let matcher = try Self.matcher(#"{"type":"array","items":{"type":"boolean"},"minItems":2}"#, .indented(4))
        #expect(matcher.advance(bytes: Array("[".utf8)))
        #expect(matcher.forcedBytes() == Array("\n    ".utf8))
        #expect(matcher.fastForwardTokens(after: Self.id("["), tokenize: Self.tokenize) == [Self.id("\n")])
    }

    /// Text that nothing can cross is forced whole, and read into the matcher.
    @Test func textNothingCanCrossIsForcedWhole() throws {
        let matcher = try Self.matcher(#"{"const":{"k":true}}"#)
        let forced = matcher.fastForwardTokens(after: nil, tokenize: Self.tokenize)
        #expect(forced == ["{\"", "k", "\":", "true", "}"].map(Self.id))
        #expect(matcher.isAccepting)
        matcher.rollback(forced.count)
        #expect(matcher.forcedBytes() == Array(#"{"k":true}"#.utf8))
    }
}
