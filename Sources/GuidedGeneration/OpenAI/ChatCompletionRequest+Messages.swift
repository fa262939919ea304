import PartialJSON

/// The messages of a request, both ways: read into a transcript, written from one.
extension ChatCompletionRequest {
    /// The messages as a transcript; the last user message carries the response format, so
    /// that the prompt describes the schema.
    static func transcript(
        _ value: JSONValue?, schema: GenerationSchema?, document: JSONValue?, tools: [Transcript.ToolDefinition]
    ) throws(Invalid) -> Transcript {
        guard let list = value?.arrayValue, !list.isEmpty else { throw Invalid(message: "'messages' must be a non-empty array.", parameter: "messages") }
        var instructions: [String] = []
        var entries: [Transcript.Entry] = []
        var callNames: [String: String] = [:]
        for (index, message) in list.enumerated() {
            let path = "messages[\(index)]"
            guard let role = message["role"]?.stringValue else { throw Invalid(message: "'\(path).role' is missing.", parameter: path + ".role") }
            let text = try content(message["content"], path + ".content")
            // Only an assistant message that calls tools may go without its content.
            let callsTools = !(message["tool_calls"]?.isNull ?? true)
            if text == nil, ["system", "developer", "user", "tool"].contains(role) || (role == "assistant" && !callsTools) {
                throw Invalid(message: "'\(path).content' is missing; a \(role) message needs its content.", parameter: path + ".content")
            }
            switch role {
            case "system", "developer":
                instructions.append(text ?? "")
            case "user":
                entries.append(.prompt(Transcript.Prompt(segments: [.text(.init(content: text ?? ""))])))
            case "assistant":
                if let reasoning = message["reasoning_content"]?.stringValue, !reasoning.isEmpty {
                    entries.append(.reasoning(Transcript.Reasoning(segments: [.text(.init(content: reasoning))])))
                }
                if let calls = message["tool_calls"], !calls.isNull {
                    guard let list = calls.arrayValue else { throw Invalid(message: "'\(path).tool_calls' must be an array.", parameter: path + ".tool_calls") }
                    var toolCalls: [Transcript.ToolCall] = []
                    for (position, call) in list.enumerated() {
                        let callPath = "\(path).tool_calls[\(position)]"
                        guard let id = call["id"]?.stringValue, let name = call["function"]?["name"]?.stringValue else {
                            throw Invalid(message: "'\(callPath)' needs an id and a function name.", parameter: callPath)
                        }
                        let arguments = call["function"]?["arguments"]?.stringValue ?? "{}"
                        guard let content = try? GeneratedContent(json: arguments.isEmpty ? "{}" : arguments) else {
                            throw Invalid(message: "The arguments of '\(callPath)' are not JSON.", parameter: callPath + ".function.arguments")
                        }
                        callNames[id] = name
                        toolCalls.append(Transcript.ToolCall(id: id, toolName: name, arguments: content))
                    }
                    entries.append(.toolCalls(Transcript.ToolCalls(toolCalls)))
                } else {
                    entries.append(.response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: text ?? ""))])))
                }
            case "tool":
                guard let id = message["tool_call_id"]?.stringValue else {
                    throw Invalid(message: "'\(path).tool_call_id' is missing.", parameter: path + ".tool_call_id")
                }
                entries.append(.toolOutput(Transcript.ToolOutput(id: id, toolName: callNames[id] ?? "tool", segments: [.text(.init(content: text ?? ""))])))
            default:
                throw Invalid(message: "'\(path).role' must be system, developer, user, assistant or tool.", parameter: path + ".role")
            }
        }
        // The schema is described to the model, unless the client wrote this engine's description.
        if let schema, let document, let last = entries.lastIndex(where: { if case .prompt = $0 { true } else { false } }),
            case .prompt(var prompt) = entries[last],
            case let description = SchemaPromptText.render(document),
            !prompt.segments.text.contains(description), !instructions.contains(where: { $0.contains(description) })
        {
            prompt.responseFormat = Transcript.ResponseFormat(schema: schema)
            entries[last] = .prompt(prompt)
        }
        if !instructions.isEmpty || !tools.isEmpty {
            let segments: [Transcript.Segment] = instructions.isEmpty ? [] : [.text(.init(content: instructions.joined(separator: "\n\n")))]
            entries.insert(.instructions(Transcript.Instructions(segments: segments, toolDefinitions: tools)), at: 0)
        }
        return Transcript(entries: entries)
    }

    /// The text of a message's content: a string, or an array of text parts.
    private static func content(_ value: JSONValue?, _ path: String) throws(Invalid) -> String? {
        guard let value, !value.isNull else { return nil }
        if let text = value.stringValue { return text }
        guard let parts = value.arrayValue else { throw Invalid(message: "'\(path)' must be a string or an array of parts.", parameter: path) }
        var text = ""
        for (index, part) in parts.enumerated() {
            guard part["type"]?.stringValue == "text", let piece = part["text"]?.stringValue else {
                throw Invalid(message: "'\(path)[\(index)]' is not a text part (only text is read).", parameter: "\(path)[\(index)]")
            }
            text += piece
        }
        return text
    }

    /// The transcript as messages; reasoning goes with the next assistant message as its
    /// `reasoning_content`.
    static func messages(of transcript: Transcript) throws -> [JSONValue] {
        var messages: [JSONValue] = []
        var reasoning: String?
        func assistant(_ members: JSONObject) {
            var message = members
            if let text = reasoning { message.append(key: "reasoning_content", value: .string(text)) }
            reasoning = nil
            messages.append(.object(message))
        }
        // The schema the answer follows is described in the system message, as for the local model.
        var description = ConversationRenderer.schemaDescription(of: transcript)
        for entry in transcript {
            if entry.segments.contains(where: { if case .custom = $0 { true } else { false } }) {
                throw LanguageModelError.unsupportedTranscriptContent(
                    .init(unsupportedContent: [entry], debugDescription: "Custom segments are for custom models; a served model does not read them."))
            }
            switch entry {
            case .instructions(let instructions) where !instructions.segments.attachments.isEmpty:
                throw LanguageModelError.unsupportedTranscriptContent(
                    .init(unsupportedContent: [entry], debugDescription: "A served model reads images in prompts only; move the attachment from the instructions to a prompt."))
            case .instructions(let instructions):
                // The tools go in `tools`; the system message keeps the instructions' text.
                let text = [instructions.segments.text, description ?? ""].filter { !$0.isEmpty }.joined(separator: "\n\n")
                description = nil
                if !text.isEmpty { messages.append(message("system", text)) }
            case .prompt(let prompt) where !prompt.segments.attachments.isEmpty:
                messages.append(.object(["role": .string("user"), "content": .array(try contentParts(of: prompt.segments, in: entry))]))
            case .prompt:
                if let rendered = ConversationRenderer.message(for: entry, hasTools: false) { messages.append(message(rendered.role.rawValue, rendered.content)) }
            case .response:
                if let rendered = ConversationRenderer.message(for: entry, hasTools: false) {
                    assistant(["role": .string("assistant"), "content": .string(rendered.content)])
                }
            case .reasoning(let entry):
                reasoning = (reasoning.map { $0 + "\n" } ?? "") + entry.segments.text
            case .toolCalls(let calls):
                let list = calls.map { OpenAIWireValue.toolCall(id: $0.id, name: $0.toolName, arguments: $0.arguments.jsonString) }
                assistant(["role": .string("assistant"), "content": .null, "tool_calls": .array(list)])
            case .toolOutput(let output):
                messages.append(.object(["role": .string("tool"), "tool_call_id": .string(output.id), "content": .string(output.segments.text)]))
            case .data(let data):
                throw LanguageModelError.unsupportedTranscriptContent(
                    .init(unsupportedContent: [entry], debugDescription: "A served model reads no data entries (\(data.contentType.identifier)); leave the entry out of the transcript."))
            }
        }
        if let description { messages.insert(message("system", description), at: 0) }
        return messages
    }

    /// A prompt's segments as OpenAI content parts: text parts, and each image as an
    /// `image_url` part holding a `data:` URL (a file is read) or the image's own URL.
    /// - Throws: ``LanguageModelError/unsupportedTranscriptContent(_:)`` when a file cannot be read.
    static func contentParts(of segments: [Transcript.Segment], in entry: Transcript.Entry) throws -> [JSONValue] {
        try segments.compactMap { segment in
            switch segment {
            case .text, .structure:
                return segment.text.isEmpty ? nil : .object(["type": .string("text"), "text": .string(segment.text)])
            case .custom:
                return nil
            case .attachment(let attachment):
                switch attachment.content {
                case .image(let image):
                    let address: String?
                    do {
                        address = try image.address()
                    } catch {
                        throw LanguageModelError.unsupportedTranscriptContent(
                            .init(unsupportedContent: [entry], debugDescription: "The image attachment could not be read: \(error)"))
                    }
                    guard let address else {
                        throw LanguageModelError.unsupportedTranscriptContent(
                            .init(unsupportedContent: [entry], debugDescription: "An image attachment holds neither bytes nor a URL."))
                    }
                    return .object(["type": .string("image_url"), "image_url": .object(["url": .string(address)])])
                case .data(let data):
                    throw LanguageModelError.unsupportedTranscriptContent(
                        .init(unsupportedContent: [entry], debugDescription: "A served model reads no data attachments (\(data.contentType.identifier)); leave the attachment out."))
                }
            }
        }
    }

    private static func message(_ role: String, _ content: String) -> JSONValue {
        .object(["role": .string(role), "content": .string(content)])
    }
}
