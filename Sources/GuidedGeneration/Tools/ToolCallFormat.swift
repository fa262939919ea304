/// How the local model writes its turns in a session with tools (beyond Apple's API; set it as
/// ``GenerationOptions/toolCallFormat``, or with `guided serve --tool-format`).
///
/// Either way the grammar lets the model call only the session's tools, with arguments of their
/// schemas, and the calls become ``Transcript/ToolCall`` values.
public enum ToolCallFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every turn is one JSON object: `{"tool_calls":[{"name": …, "arguments": {…}}]}` or
    /// `{"answer": …}`, with the tools presented by the engine's own instructions. Any model
    /// writes it; the default.
    case jsonTurn = "json"
    /// The model's own format, where its chat template has one that writes calls in
    /// `<tool_call>` tags (Qwen2.5's): the template presents the tools, and the model writes its
    /// answer as text (or the JSON of the requested schema) or one or more
    /// `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>` blocks. A model whose template
    /// has no such format gets ``jsonTurn``. The answer is reported when the turn is complete,
    /// not as it is written.
    case modelTemplate = "template"
}
