/// A tokenizer's vocabulary as the decoder sees it: the raw bytes of every token, the special
/// tokens (never allowed inside a document) and the end-of-text token (allowed exactly when the
/// document is complete).
public struct Vocabulary: Sendable {
    /// The bytes of each token, by id.
    public let tokens: [[UInt8]]
    /// Ids of tokens that never appear in generated text (control tokens, templates' markers).
    public let specialTokens: Set<Int32>
    /// The id that ends generation.
    public let endOfText: Int32
    let trie: TokenTrie
    /// The tokens that are plain string text: whole UTF-8 characters, none of which must be
    /// escaped in a JSON string. Inside a free-text string every one of them is allowed.
    let plainTextTokens: TokenBitset
    /// A trie of the other tokens, walked in free-text states instead of the whole vocabulary.
    let otherTokensTrie: TokenTrie
    /// Plain-text tokens of at least `n` characters, for `n` from 0 to one past the longest
    /// (which is empty).
    let plainTextTokensOfLengthAtLeast: [TokenBitset]

    public init(tokens: [[UInt8]], specialTokens: Set<Int32>, endOfText: Int32) {
        self.tokens = tokens
        self.specialTokens = specialTokens.union([endOfText])
        self.endOfText = endOfText
        let excluded = self.specialTokens
        trie = TokenTrie(tokens: tokens) { !excluded.contains(Int32($0)) }
        var plain = TokenBitset(capacity: tokens.count)
        for (id, token) in tokens.enumerated() where !excluded.contains(Int32(id)) && Self.isPlainText(token) {
            plain.insert(Int32(id))
        }
        plainTextTokens = plain
        otherTokensTrie = TokenTrie(tokens: tokens) { !excluded.contains(Int32($0)) && !plain.contains(Int32($0)) }
        var atLeast: [TokenBitset] = [plain]
        for id in plain.ids {
            let length = String(decoding: tokens[Int(id)], as: UTF8.self).unicodeScalars.count
            while atLeast.count <= length + 1 { atLeast.append(TokenBitset(capacity: tokens.count)) }
            atLeast[length].insert(id)
        }
        for length in stride(from: atLeast.count - 2, through: 1, by: -1) {
            atLeast[length].formUnion(atLeast[length + 1])
        }
        plainTextTokensOfLengthAtLeast = atLeast
    }

    /// Sets `mask` to the plain-text tokens of 1 to `length` characters (all of them when
    /// `length` reaches the longest).
    func setPlainTextTokens(upTo length: Int, in mask: inout TokenBitset) {
        let longest = plainTextTokensOfLengthAtLeast.count - 1
        mask.assign(plainTextTokensOfLengthAtLeast[min(length, 1)], subtracting: plainTextTokensOfLengthAtLeast[min(length + 1, longest)])
    }

    /// The length in characters of the longest plain-text token: a chain of states that allows
    /// this many characters allows every plain-text token.
    var longestPlainText: Int { max(plainTextTokensOfLengthAtLeast.count - 2, 0) }

    /// Whether `bytes` are whole UTF-8 characters, none a control character, `"` or `\`.
    static func isPlainText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else { return false }
        return text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\"" && $0 != "\\" }
    }

    /// The number of token ids.
    public var count: Int { tokens.count }
}
