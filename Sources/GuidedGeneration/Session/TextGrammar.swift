import ConstrainedDecoding

/// A grammar that a text answer follows (beyond Apple's API): a regular expression the whole
/// text matches, one of a list of strings, a GBNF grammar (llama.cpp's format) or a Lark grammar
/// (llguidance's). Ask for it with `respond(to:grammar:options:)` or
/// `streamResponse(to:grammar:options:)`, or set it as ``GenerationOptions/textGrammar`` on a
/// request without a schema; the local model enforces it token by token, as it does a schema.
///
/// ```swift
/// let session = LanguageModelSession()
/// let answer = try await session.respond(to: "Is the sky blue?", grammar: .choices(["yes", "no"]))
/// print(answer.content)  // "yes" or "no"
/// ```
public enum TextGrammar: Sendable, Equatable, Codable {
    /// The whole text matches the regular expression (the ECMA-262 subset of `pattern`).
    case regex(String)
    /// The text is one of the strings, exactly.
    case choices([String])
    /// The text follows the GBNF grammar from its `root` rule.
    case gbnf(String)
    /// The text follows the Lark grammar from its `start` rule (`%json {…}` embeds a schema).
    case lark(String)

    /// A grammar given as text whose syntax is not named, as vLLM's `grammar` fields take it:
    /// GBNF when it defines a rule with `::=`, else Lark.
    public init(grammarText text: String) {
        self = text.contains("::=") ? .gbnf(text) : .lark(text)
    }

    /// The compiled grammar.
    ///
    /// - Throws: ``GrammarError`` naming what cannot be enforced (with the rule, line and column
    ///   for GBNF and Lark).
    public func compiled() throws(GrammarError) -> CompiledGrammar {
        switch self {
        case .regex(let pattern): try CompiledGrammar(regex: pattern)
        case .choices(let choices): try CompiledGrammar(choices: choices)
        case .gbnf(let text): try CompiledGrammar(gbnf: text)
        case .lark(let text): try CompiledGrammar(lark: text)
        }
    }
}
