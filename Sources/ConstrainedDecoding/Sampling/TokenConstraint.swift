/// What the sampling chain reads from whatever constrains the next token: whether one token is
/// allowed, the mask of all allowed tokens, and whether the characters are free text there. A
/// ``GrammarMatcher`` is one; the chain knows nothing else of grammars, so that it can be used
/// (and tested) with any source of masks.
public protocol TokenConstraint {
    /// Whether the characters at this point are free text (see
    /// ``GrammarMatcher/isInFreeText``), where ``SamplingChain/freeTextSettings`` apply.
    var isInFreeText: Bool { get }
    /// Whether `token` may come next.
    func canAdvance(token: Int32) -> Bool
    /// Sets `mask` to the tokens that may come next.
    func allowedTokens(into mask: inout TokenBitset)
}

extension GrammarMatcher: TokenConstraint {}
