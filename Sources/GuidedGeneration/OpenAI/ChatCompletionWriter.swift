import PartialJSON

/// The JSON of a chat completion's answers: the whole `chat.completion` object, or the
/// `chat.completion.chunk` events of a stream, all with the same id, time and model name.
package struct ChatCompletionWriter {
    let id: String
    let created: Int
    let model: String

    /// A writer of the completion `id`, made at `created` (seconds since 1970) by `model`.
    package init(id: String, created: Int, model: String) {
        self.id = id
        self.created = created
        self.model = model
    }

    /// The assistant message of a turn: its text (or JSON value), or `content` in its place,
    /// or its tool calls, with the model's reasoning when it sent any.
    package func message(of turn: ChannelTurn, content: String? = nil) -> JSONValue {
        var message = answer(of: turn, content: content)
        let reasoning = turn.reasoningText
        if !reasoning.isEmpty, var object = message.objectValue {
            object.append(key: "reasoning_content", value: .string(reasoning))
            message = .object(object)
        }
        return message
    }

    private func answer(of turn: ChannelTurn, content: String?) -> JSONValue {
        if !turn.calls.isEmpty {
            let calls = turn.calls.map { OpenAIWireValue.toolCall(id: $0.id, name: $0.name, arguments: $0.arguments) }
            return .object(["role": .string("assistant"), "content": .null, "tool_calls": .array(calls)])
        }
        return .object(["role": .string("assistant"), "content": .string(content ?? turn.responseText)])
    }

    /// Why the turn ended: tool calls, the token limit, or the model's own end.
    package func finishReason(of turn: ChannelTurn, request: ChatCompletionRequest) -> String {
        if !turn.calls.isEmpty { return "tool_calls" }
        if let limit = request.generation.generationOptions.maximumResponseTokens, turn.usage.output.totalTokenCount >= limit { return "length" }
        return "stop"
    }

    package func whole(message: JSONValue, finishReason: String, usage: LanguageModelSession.Usage) -> JSONValue {
        envelope(
            "chat.completion",
            [
                "choices": .array([.object(["index": .number(0), "message": message, "finish_reason": .string(finishReason)])]),
                "usage": OpenAIWireValue.usage(usage),
            ])
    }

    package func chunk(delta: JSONObject, finishReason: String? = nil) -> JSONValue {
        envelope(
            "chat.completion.chunk",
            ["choices": .array([.object(["index": .number(0), "delta": .object(delta), "finish_reason": finishReason.map(JSONValue.string) ?? .null])])])
    }

    package func usageChunk(_ usage: LanguageModelSession.Usage) -> JSONValue {
        envelope("chat.completion.chunk", ["choices": .array([]), "usage": OpenAIWireValue.usage(usage)])
    }

    /// An object of the kind `object` with the completion's id, time and model, then `members`.
    private func envelope(_ object: String, _ members: JSONObject) -> JSONValue {
        var envelope: JSONObject = ["id": .string(id), "object": .string(object), "created": .number(JSONNumber(created)), "model": .string(model)]
        envelope.members += members.members
        return .object(envelope)
    }

    /// A server-sent event holding `value`.
    package func event(_ value: JSONValue) -> [UInt8] {
        Array(("data: " + value.jsonString + "\n\n").utf8)
    }
}
