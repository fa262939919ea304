import ConstrainedDecoding

/// How a structured answer's JSON is laid out. The layout is part of the grammar: the model
/// writes the values, and the whitespace only where the layout leaves it a choice.
public enum JSONLayout: Sendable, Hashable, Codable {
    /// No whitespace.
    case compact
    /// A member or element per line, indented by this many spaces per level.
    case indented(Int)
    /// The model's choice, as llama.cpp's JSON Schema grammars allow it: inside brackets, around
    /// colons and after commas, nothing, a space, or one or two line breaks followed by up to 20
    /// spaces or tabs.
    case free
}

extension JSONLayout {
    /// The layout the local models write structured answers in unless a request names another
    /// (``GenerationOptions/jsonLayout``): a member or element per line, indented by two spaces,
    /// as the chat data of these models has JSON and as they write it when left free. Compact
    /// answers take about a third fewer tokens, but the instruct models reason worse in them
    /// (task accuracy 28.7% against 38.0% on Qwen2.5-Coder-0.5B-Instruct; Benchmarks/README.md).
    static let localAnswers = JSONLayout.indented(2)

    /// The compiler's whitespace for this layout.
    var whitespace: CompileOptions.Whitespace {
        switch self {
        case .compact: .compact
        case .indented(let indent): .indented(indent)
        case .free: .llamaCpp
        }
    }
}
