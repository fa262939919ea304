import Foundation
import PartialJSON

/// The body of an OpenAI chat-completions request for a generation request: the transcript as
/// messages (instructions as the system message, prompts as user messages with the schema
/// described when the prompt asks for it, responses and tool calls as assistant messages, tool
/// outputs as tool messages), the schema as a strict `response_format`, the enabled tools, and
/// the options mapped onto the protocol's settings.
enum ChatCompletionsRequest {
    static func body(for request: LanguageModelExecutorGenerationRequest, model: String) throws -> JSONValue {
        var members: JSONObject = [
            "model": .string(model),
            "messages": .array(try messages(of: request.transcript)),
            "stream": .bool(true),
            "stream_options": .object(["include_usage": .bool(true)]),
        ]
        let options = request.generationOptions
        switch options.samplingMode?.kind {
        case .greedy?:
            members.members.append(.init(key: "temperature", value: .number(0)))
        case .randomTopK(let k, let seed)?:
            // `top_k` is an extension that vLLM, SGLang, llama-server and Ollama read.
            members.members.append(.init(key: "top_k", value: .number(JSONNumber(k))))
            if let seed { members.members.append(.init(key: "seed", value: number(seed))) }
        case .randomProbabilityThreshold(let p, let seed)?:
            members.members.append(.init(key: "top_p", value: .number(JSONNumber(p) ?? 1)))
            if let seed { members.members.append(.init(key: "seed", value: number(seed))) }
        case nil:
            break
        }
        if options.samplingMode?.kind != .greedy, let temperature = options.temperature, let value = JSONNumber(temperature) {
            members.members.append(.init(key: "temperature", value: .number(value)))
        }
        if let settings = options.samplingSettings { members.members += samplingMembers(settings) }
        if let maximum = options.maximumResponseTokens {
            members.members.append(.init(key: "max_tokens", value: .number(JSONNumber(max(1, maximum)))))
        }
        if let schema = request.schema {
            members.members.append(
                .init(
                    key: "response_format",
                    value: .object([
                        "type": .string("json_schema"),
                        "json_schema": .object(["name": .string(name(of: schema)), "schema": try schema.jsonSchema(), "strict": .bool(true)]),
                    ])))
        }
        if !request.enabledToolDefinitions.isEmpty {
            let tools = try request.enabledToolDefinitions.map { tool -> JSONValue in
                .object([
                    "type": .string("function"),
                    "function": .object([
                        "name": .string(tool.name), "description": .string(tool.description), "parameters": try tool.parameters.jsonSchema(),
                    ]),
                ])
            }
            members.members.append(.init(key: "tools", value: .array(tools)))
            let choice = options.toolCallingMode?.kind == .required ? "required" : "auto"
            members.members.append(.init(key: "tool_choice", value: .string(choice)))
        }
        return .object(members)
    }

    /// The stages of the sampling chain as the protocol's fields: OpenAI's `frequency_penalty`,
    /// `presence_penalty` and `logit_bias`, and the `top_k`, `top_p`, `min_p`, `repeat_penalty`,
    /// `repeat_last_n` and `dry_*` extensions that llama-server (and some others) read.
    private static func samplingMembers(_ settings: SamplingSettings) -> [JSONObject.Member] {
        var members: [JSONObject.Member] = []
        func add(_ key: String, _ value: Double?) {
            if let value, let number = JSONNumber(value) { members.append(.init(key: key, value: .number(number))) }
        }
        add("top_k", settings.topK.map(Double.init))
        add("top_p", settings.topP)
        add("min_p", settings.minP)
        add("repeat_penalty", settings.repetitionPenalty.map(Double.init))
        add("repeat_last_n", settings.penaltyWindow.map(Double.init))
        add("frequency_penalty", settings.frequencyPenalty.map(Double.init))
        add("presence_penalty", settings.presencePenalty.map(Double.init))
        if let dry = settings.dry {
            add("dry_multiplier", Double(dry.multiplier))
            add("dry_base", Double(dry.base))
            add("dry_allowed_length", Double(dry.allowedLength))
            add("dry_penalty_last_n", Double(dry.window ?? -1))
            members.append(.init(key: "dry_sequence_breakers", value: .array(dry.sequenceBreakers.map { .string($0) })))
        }
        if let bias = settings.logitBias, !bias.isEmpty {
            let entries = bias.sorted { $0.key < $1.key }.compactMap { token, amount in
                JSONNumber(Double(amount)).map { JSONObject.Member(key: String(token), value: .number($0)) }
            }
            members.append(.init(key: "logit_bias", value: .object(JSONObject(entries))))
        }
        return members
    }

    /// A name for `response_format`: the schema's title, made of the characters the protocol
    /// allows, else `response`.
    static func name(of schema: GenerationSchema) -> String {
        let allowed = (schema.name ?? "").unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
        return allowed.isEmpty ? "response" : String(String.UnicodeScalarView(allowed.prefix(64)))
    }

    private static func number(_ seed: UInt64) -> JSONValue {
        .number(JSONNumber(String(seed)) ?? 0)
    }

    /// The transcript as messages; reasoning goes with the next assistant message as its
    /// `reasoning_content`.
    private static func messages(of transcript: Transcript) throws -> [JSONValue] {
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
            switch entry {
            case .instructions(let instructions):
                // The tools go in `tools`; the system message keeps the instructions' text.
                let text = [instructions.segments.text, description ?? ""].filter { !$0.isEmpty }.joined(separator: "\n\n")
                description = nil
                if !text.isEmpty { messages.append(message("system", text)) }
            case .prompt:
                if let rendered = ConversationRenderer.message(for: entry, hasTools: false) { messages.append(message(rendered.role.rawValue, rendered.content)) }
            case .response:
                if let rendered = ConversationRenderer.message(for: entry, hasTools: false) {
                    assistant(["role": .string("assistant"), "content": .string(rendered.content)])
                }
            case .reasoning(let entry):
                reasoning = (reasoning.map { $0 + "\n" } ?? "") + entry.segments.text
            case .toolCalls(let calls):
                let list = calls.map { call -> JSONValue in
                    .object([
                        "id": .string(call.id), "type": .string("function"),
                        "function": .object(["name": .string(call.toolName), "arguments": .string(call.arguments.jsonString)]),
                    ])
                }
                assistant(["role": .string("assistant"), "content": .null, "tool_calls": .array(list)])
            case .toolOutput(let output):
                messages.append(.object(["role": .string("tool"), "tool_call_id": .string(output.id), "content": .string(output.segments.text)]))
            }
        }
        if let description { messages.insert(message("system", description), at: 0) }
        return messages
    }

    private static func message(_ role: String, _ content: String) -> JSONValue {
        .object(["role": .string(role), "content": .string(content)])
    }
}
