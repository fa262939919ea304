import PartialJSON

/// How a transcript becomes the messages a backend's chat template renders: instructions as the
/// system message, prompts (with the schema of their response format) as user messages,
/// responses as assistant messages, tool calls and outputs as the template's tool turns.
enum ConversationRenderer {
    static func messages(of transcript: Transcript) -> [ConversationMessage] {
        transcript.compactMap(message(for:))
    }

    static func message(for entry: Transcript.Entry) -> ConversationMessage? {
        switch entry {
        case .instructions(let instructions):
            return ConversationMessage(role: .system, content: instructions.segments.text)
        case .prompt(let prompt):
            var text = prompt.segments.text
            if let format = prompt.responseFormat, let schema = try? format.schema.jsonSchema() {
                text += "\n\n" + SchemaPromptText.render(schema)
            }
            return ConversationMessage(role: .user, content: text)
        case .response(let response):
            return ConversationMessage(role: .assistant, content: response.segments.text)
        case .toolCalls(let calls):
            return ConversationMessage(
                role: .assistant, content: calls.map { "{\"tool\":\(JSONValue.string($0.toolName).jsonString),\"arguments\":\($0.arguments.jsonString)}" }.joined(separator: "\n"))
        case .toolOutput(let output):
            return ConversationMessage(role: .tool, content: output.segments.text)
        }
    }
}
