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
    /// The tables masks are computed from, shared by every copy.
    let index: VocabularyIndex

    public init(tokens: [[UInt8]], specialTokens: Set<Int32>, endOfText: Int32) {
        self.tokens = tokens
        self.specialTokens = specialTokens.union([endOfText])
        self.endOfText = endOfText
        index = VocabularyIndex(tokens: tokens, excluded: self.specialTokens)
    }

    /// The number of token ids.
    public var count: Int { tokens.count }
}
