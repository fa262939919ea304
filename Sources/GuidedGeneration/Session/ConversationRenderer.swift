/// How a transcript becomes the messages a backend's chat template renders: instructions as the
/// system message, prompts (with the schema of their response format) as user messages,
/// responses as assistant messages. When the instructions define tools, the model's turns are
/// written as ``ToolTurnFormat`` writes them, with the tools presented in the system message.
package enum ConversationRenderer {
    package static func messages(of transcript: Transcript) -> [ConversationMessage] {
        let hasTools = transcript.contains { entry in
            if case .instructions(let instructions) = entry { return !instructions.toolDefinitions.isEmpty }
            return false
        }
        var messages: [ConversationMessage] = []
        // The outputs of one turn's calls make one message.
        var outputs: [Transcript.ToolOutput] = []
        func flushOutputs() {
            guard !outputs.isEmpty else { return }
            messages.append(ConversationMessage(role: .user, content: ToolTurnFormat.text(of: outputs)))
            outputs = []
        }
        for entry in transcript {
            if case .toolOutput(let output) = entry {
                outputs.append(output)
                continue
            }
            flushOutputs()
            if let message = message(for: entry, hasTools: hasTools) { messages.append(message) }
        }
        flushOutputs()
        return messages
    }

    /// The longest request (in characters) that is said again after the schema description.
    static let restatedRequestLength = 500

    static func message(for entry: Transcript.Entry, hasTools: Bool) -> ConversationMessage? {
        switch entry {
        case .instructions(let instructions):
            let tools = ToolTurnFormat.instructions(for: instructions.toolDefinitions)
            let text = [instructions.segments.text, tools].filter { !$0.isEmpty }.joined(separator: "\n\n")
            return ConversationMessage(role: .system, content: text)
        case .prompt(let prompt):
            var text = prompt.segments.text
            if let format = prompt.responseFormat, let schema = try? format.schema.jsonSchema() {
                text += "\n\n" + SchemaPromptText.render(schema)
                // A short request is said again after the schema, next to where the answer begins:
                // small models otherwise drift from the topic (answer-quality benchmark, seeded
                // answers passing every check: 82% without, 87% with).
                let request = prompt.segments.text
                if request.count <= restatedRequestLength { text += "\n\nThe request: " + request }
            }
            return ConversationMessage(role: .user, content: text)
        case .response(let response):
            return ConversationMessage(role: .assistant, content: hasTools ? ToolTurnFormat.text(of: response) : response.segments.text)
        case .toolCalls(let calls):
            return ConversationMessage(role: .assistant, content: ToolTurnFormat.text(of: calls))
        case .toolOutput(let output):
            return ConversationMessage(role: .user, content: ToolTurnFormat.text(of: [output]))
        case .reasoning:
            // Chat templates leave earlier reasoning out of the conversation.
            return nil
        }
    }
}
