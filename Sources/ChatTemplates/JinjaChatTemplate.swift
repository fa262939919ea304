import Foundation

/// A model's own chat template, in Jinja, as a GGUF file's `tokenizer.chat_template` holds it,
/// with the texts of the special tokens it reads, rendered by ``JinjaTemplate`` as Hugging Face
/// `transformers` renders it.
public struct JinjaChatTemplate: Sendable, Equatable {
    /// The parsed template.
    public let template: JinjaTemplate
    /// The text of the model's beginning-of-sequence token, `bos_token` in the template.
    public let beginningOfSequence: String
    /// The text of the model's end-of-sequence token, `eos_token` in the template.
    public let endOfSequence: String
    /// The text that ends an assistant's turn: the marker of a known format the template writes
    /// (`<|im_end|>`, `<end_of_turn>`, `<|eot_id|>`, `<|end|>`), else the end-of-sequence text.
    public let endOfTurn: String

    /// Parses `source`, a template that reads the special tokens `beginningOfSequence` and
    /// `endOfSequence`.
    public init(source: String, beginningOfSequence: String = "", endOfSequence: String = "") throws(JinjaError) {
        template = try JinjaTemplate(source: source)
        self.beginningOfSequence = beginningOfSequence
        self.endOfSequence = endOfSequence
        endOfTurn = (try? ChatTemplate(source: source))?.endOfTurn ?? endOfSequence
    }

    /// The text of a conversation given as template values (dictionaries with `role` and
    /// `content`, and whatever else the template reads, such as `tool_calls`), with the opening
    /// of the assistant's turn when asked; `tools` are the JSON schemas of the functions the
    /// model may call (`nil` for none, which templates see as `none`); `now` is the date
    /// `strftime_now` writes.
    public func render(messages: [JinjaValue], addingGenerationPrompt: Bool, tools: [JinjaValue]? = nil, now: Date = Date())
        throws(JinjaError) -> String
    {
        try template.render(
            [
                "messages": .array(messages), "add_generation_prompt": .boolean(addingGenerationPrompt),
                "bos_token": .string(beginningOfSequence), "eos_token": .string(endOfSequence), "tools": tools.map { .array($0) } ?? .none,
                "documents": .none,
            ], now: now)
    }

    /// The text of a conversation, with the opening of the assistant's turn when asked. When the
    /// template raises an exception for a conversation with a system message (Gemma 2's, for
    /// one, accepts none), the system message is put before the first user message instead, as
    /// Gemma 3's template does.
    public func render(_ messages: [ChatMessage], addingGenerationPrompt: Bool = true, tools: [JinjaValue]? = nil, now: Date = Date())
        throws(JinjaError) -> String
    {
        do {
            return try render(messages: messages.map(\.templateValue), addingGenerationPrompt: addingGenerationPrompt, tools: tools, now: now)
        } catch .raised(let message, let location) {
            let folded = Self.foldingSystemMessages(messages)
            guard folded != messages else { throw .raised(message, at: location) }
            return try render(messages: folded.map(\.templateValue), addingGenerationPrompt: addingGenerationPrompt, tools: tools, now: now)
        }
    }

    /// `messages` without system messages, their text put before the next user message's.
    static func foldingSystemMessages(_ messages: [ChatMessage]) -> [ChatMessage] {
        var folded: [ChatMessage] = []
        var system: [String] = []
        for message in messages {
            if message.role == .system {
                system.append(message.content)
                continue
            }
            var message = message
            if message.role == .user, !system.isEmpty {
                message.content = (system + [message.content]).joined(separator: "\n\n")
                system = []
            }
            folded.append(message)
        }
        if !system.isEmpty { folded.append(ChatMessage(role: .user, content: system.joined(separator: "\n\n"))) }
        return folded
    }

    /// Renders a sample conversation (system, user, assistant, user; with and without the
    /// generation prompt), so that a construct the interpreter lacks fails when the template is
    /// loaded rather than when it is first used. A template that refuses a system message is
    /// tried without one.
    public func validate() throws(JinjaError) {
        let system = ChatMessage(role: .system, content: "You are a helpful assistant.")
        let turns = [
            ChatMessage(role: .user, content: "Hello!"), ChatMessage(role: .assistant, content: "Hi! How can I help?"),
            ChatMessage(role: .user, content: "What is 2 + 2?"),
        ]
        for addingGenerationPrompt in [true, false] {
            do {
                _ = try render([system] + turns, addingGenerationPrompt: addingGenerationPrompt)
            } catch .raised, .evaluation {
                _ = try render(turns, addingGenerationPrompt: addingGenerationPrompt)
            }
        }
    }

    /// Equal when the sources and the special tokens are.
    public static func == (left: JinjaChatTemplate, right: JinjaChatTemplate) -> Bool {
        left.template.source == right.template.source && left.beginningOfSequence == right.beginningOfSequence
            && left.endOfSequence == right.endOfSequence
    }
}

extension ChatMessage {
    /// The message as templates read it: a dictionary with `role` and `content`, and
    /// `tool_calls` when it calls tools (each `{"type": "function", "function": {"name",
    /// "arguments"}}`, as OpenAI's messages hold them and templates read them).
    var templateValue: JinjaValue {
        var pairs: [(String, JinjaValue)] = [("role", .string(role.rawValue)), ("content", .string(content))]
        if !toolCalls.isEmpty {
            let calls = toolCalls.map { call -> JinjaValue in
                let function = JinjaValue.dictionary(JinjaDictionary([("name", .string(call.name)), ("arguments", JinjaValue(jsonValue: call.arguments))]))
                return .dictionary(JinjaDictionary([("type", .string("function")), ("function", function)]))
            }
            pairs.append(("tool_calls", .array(calls)))
        }
        return .dictionary(JinjaDictionary(pairs))
    }
}
