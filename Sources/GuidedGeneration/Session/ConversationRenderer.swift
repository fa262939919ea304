/// How a transcript becomes the messages a backend's chat template renders: instructions as the
/// system message, prompts (with the schema of their response format) as user messages,
/// responses as assistant messages; tool definitions, calls and outputs as ``ToolCallSyntax``
/// writes them.
enum ConversationRenderer {
    static func messages(of transcript: Transcript) -> [ConversationMessage] {
        transcript.compactMap(message(for:))
    }

    static func message(for entry: Transcript.Entry) -> ConversationMessage? {
        switch entry {
        case .instructions(let instructions):
            let tools = ToolCallSyntax.instructions(for: instructions.toolDefinitions)
            let text = [instructions.segments.text, tools].filter { !$0.isEmpty }.joined(separator: "\n\n")
            return ConversationMessage(role: .system, content: text)
        case .prompt(let prompt):
            var text = prompt.segments.text
            if let format = prompt.responseFormat, let schema = try? format.schema.jsonSchema() {
                text += "\n\n" + SchemaPromptText.render(schema)
            }
            return ConversationMessage(role: .user, content: text)
        case .response(let response):
            return ConversationMessage(role: .assistant, content: response.segments.text)
        case .toolCalls(let calls):
            return ConversationMessage(role: .assistant, content: ToolCallSyntax.text(of: calls))
        case .toolOutput(let output):
            return ConversationMessage(role: .user, content: ToolCallSyntax.text(of: output))
        }
    }
}
