import ConstrainedDecoding

/// A grammar that a text answer follows (beyond Apple's API): a regular expression the whole
/// text matches, one of a list of strings, or a GBNF grammar (llama.cpp's format). Set it as
/// ``GenerationOptions/textGrammar`` on a request without a schema; the local model enforces
/// it token by token, as it does a schema.
public enum TextGrammar: Sendable, Equatable, Codable {
    /// The whole text matches the regular expression (the ECMA-262 subset of `pattern`).
    case regex(String)
    /// The text is one of the strings, exactly.
    case choices([String])
    /// The text follows the GBNF grammar from its `root` rule.
    case gbnf(String)

    /// The compiled grammar.
    ///
    /// - Throws: ``GrammarError`` naming what cannot be enforced (with the rule, line and column
    ///   for GBNF).
    public func compiled() throws(GrammarError) -> CompiledGrammar {
        switch self {
        case .regex(let pattern): try CompiledGrammar(regex: pattern)
        case .choices(let choices): try CompiledGrammar(choices: choices)
        case .gbnf(let text): try CompiledGrammar(gbnf: text)
        }
    }
}
