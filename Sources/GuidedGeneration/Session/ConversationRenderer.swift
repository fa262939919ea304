/// How a transcript becomes the messages a backend's chat template renders: instructions as the
/// system message, prompts as user messages, responses as assistant messages. The schema of the
/// last prompt's response format is described in the system message, after the instructions, so
/// that the request stands alone in its message. When the instructions define tools, the model's
/// turns are written as ``ToolTurnFormat`` writes them, with the tools presented in the system
/// message.
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
        if let description = schemaDescription(of: transcript) {
            if messages.first?.role == .system {
                messages[0].content += "\n\n" + description
            } else {
                messages.insert(ConversationMessage(role: .system, content: description), at: 0)
            }
        }
        return messages
    }

    /// The description of the schema the answer to the transcript's last prompt follows, when that
    /// prompt asks for one, with a short request said again after it. It goes in the system
    /// message rather than next to the request: small models then keep to the request's topic
    /// (answer-quality benchmark, greedy answers passing every check: 37 of 45 with the
    /// description and the request said again in the user message, 40 with the description in
    /// the system message, 42 with the request also said again after it there).
    package static func schemaDescription(of transcript: Transcript) -> String? {
        guard let prompt = lastPrompt(of: transcript) else { return nil }
        guard let format = prompt.responseFormat, let schema = try? format.schema.jsonSchema() else { return nil }
        let description = SchemaPromptText.render(schema)
        let request = prompt.segments.text
        guard !request.isEmpty, request.count <= restatedRequestLimit else { return description }
        return description + "\n\nThe request: " + request
    }

    /// The transcript's last prompt.
    package static func lastPrompt(of transcript: Transcript) -> Transcript.Prompt? {
        for entry in transcript.reversed() {
            if case .prompt(let prompt) = entry { return prompt }
        }
        return nil
    }

    /// The longest request (in characters) said again after the schema's description: a longer
    /// one would make the conversation much longer for little gain.
    static let restatedRequestLimit = 500

    static func message(for entry: Transcript.Entry, hasTools: Bool) -> ConversationMessage? {
        switch entry {
        case .instructions(let instructions):
            let tools = ToolTurnFormat.instructions(for: instructions.toolDefinitions)
            let text = [instructions.segments.text, tools].filter { !$0.isEmpty }.joined(separator: "\n\n")
            return ConversationMessage(role: .system, content: text)
        case .prompt(let prompt):
            return ConversationMessage(role: .user, content: prompt.segments.text)
        case .response(let response):
            return ConversationMessage(role: .assistant, content: hasTools ? ToolTurnFormat.text(of: response) : response.segments.text)
        case .toolCalls(let calls):
            return ConversationMessage(role: .assistant, content: ToolTurnFormat.text(of: calls))
        case .toolOutput(let output):
            return ConversationMessage(role: .user, content: ToolTurnFormat.text(of: [output]))
        case .reasoning:
            // Chat templates leave earlier reasoning out of the conversation.
            return nil
        case .data:
            // Data entries are for models that accept their type; the session refuses them to
            // any other before it is asked.
            return nil
        }
    }
}
