/// A tokenizer's vocabulary as the decoder sees it: the raw bytes of every token, the special
/// tokens (never allowed inside a document) and the tokens that end it (allowed exactly when the
/// document is complete).
public struct Vocabulary: Sendable {
    /// The bytes of each token, by id.
    public let tokens: [[UInt8]]
    /// Ids of tokens that never appear in generated text (control tokens, templates' markers).
    public let specialTokens: Set<Int32>
    /// The id that ends generation.
    public let endOfText: Int32
    /// Every id that ends generation, ``endOfText`` first: an instruct model ends its turn with
    /// its chat template's end-of-turn token as well as with its end-of-text token, and a grammar
    /// that is complete allows each, so that the model ends the way it was taught to.
    public let endTokens: [Int32]
    /// The tables masks are computed from, shared by every copy.
    let index: VocabularyIndex

    /// A vocabulary whose documents end with `endOfText` or any of `otherEndTokens`.
    public init(tokens: [[UInt8]], specialTokens: Set<Int32>, endOfText: Int32, otherEndTokens: Set<Int32> = []) {
        self.tokens = tokens
        self.specialTokens = specialTokens.union([endOfText]).union(otherEndTokens)
        self.endOfText = endOfText
        endTokens = [endOfText] + otherEndTokens.subtracting([endOfText]).sorted()
        index = VocabularyIndex(tokens: tokens, excluded: self.specialTokens)
    }

    /// Whether `token` ends generation.
    @inline(__always)
    public func isEnd(_ token: Int32) -> Bool {
        token == endOfText || (endTokens.count > 1 && endTokens.contains(token))
    }

    /// The number of token ids.
    public var count: Int { tokens.count }
}
