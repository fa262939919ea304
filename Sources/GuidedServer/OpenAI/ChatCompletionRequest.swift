import Foundation
import GuidedGeneration
import PartialJSON

/// A `POST /v1/chat/completions` body read into what the engine runs: the messages as a
/// transcript (system and developer messages as the instructions, user messages as prompts,
/// assistant messages as responses or tool calls, tool messages as tool outputs), the schema of
/// `response_format`, the `tools` with `tool_choice`, and the sampling settings as
/// ``GenerationOptions``. Whatever does not fit is a ``ChatCompletionRequest/Invalid`` error that
/// names the field.
struct ChatCompletionRequest {
    /// A request the server refuses (400), with the field at fault.
    struct Invalid: Error {
        var message: String
        var parameter: String?
    }

    var generation: LanguageModelExecutorGenerationRequest
    var stream: Bool
    var includeUsage: Bool
    /// Whether the answer is a JSON value (`response_format` json_schema or json_object).
    var isJSON: Bool { generation.schema != nil }

    init(body: [UInt8]) throws(Invalid) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw Invalid(message: "The body is not JSON: \(error)", parameter: nil)
        }
        guard let object = json.objectValue else { throw Invalid(message: "The body is not a JSON object.", parameter: nil) }
        stream = try Self.bool(object["stream"], "stream") ?? false
        includeUsage = try Self.bool(object["stream_options"]?["include_usage"], "stream_options.include_usage") ?? false
        if let count = object["n"], count.numberValue?.text != "1" {
            throw Invalid(message: "Only one choice per request is generated (n = 1).", parameter: "n")
        }
        let format = try Self.responseSchema(object["response_format"])
        let (tools, toolMode) = try Self.tools(object["tools"], choice: object["tool_choice"])
        let options = try Self.options(object, toolMode: toolMode)
        let transcript = try Self.transcript(object["messages"], schema: format?.0, document: format?.1, tools: tools)
        generation = LanguageModelExecutorGenerationRequest(
            id: UUID(), transcript: transcript, enabledTools: toolMode == .disallowed ? [] : tools, schema: format?.0, generationOptions: options,
            contextOptions: ContextOptions(), metadata: [:])
    }

    private static func bool(_ value: JSONValue?, _ name: String) throws(Invalid) -> Bool? {
        guard let value, !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw Invalid(message: "'\(name)' must be true or false.", parameter: name) }
        return bool
    }

    private static func number(_ value: JSONValue?, _ name: String, in range: ClosedRange<Double>) throws(Invalid) -> Double? {
        guard let value, !value.isNull else { return nil }
        guard let number = try? value.numberValue?.doubleValue(), range.contains(number) else {
            throw Invalid(message: "'\(name)' must be a number from \(range.lowerBound) to \(range.upperBound).", parameter: name)
        }
        return number
    }

    private static func integer(_ value: JSONValue?, _ name: String, in range: ClosedRange<Int>) throws(Invalid) -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.numberValue, number.isIntegerLiteral, let integer = try? number.intValue(), range.contains(integer) else {
            throw Invalid(message: "'\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound).", parameter: name)
        }
        return integer
    }

    /// The schema of `response_format` and its document as sent: that of `json_schema`, any
    /// object for `json_object`, none for `text`.
    private static func responseSchema(_ format: JSONValue?) throws(Invalid) -> (GenerationSchema, JSONValue)? {
        guard let format, !format.isNull else { return nil }
        let type = format["type"]?.stringValue
        let document: JSONValue
        switch type {
        case "text"?:
            return nil
        case "json_object"?:
            document = .object(["type": .string("object")])
        case "json_schema"?:
            guard let schema = format["json_schema"]?["schema"], schema.objectValue != nil || schema.boolValue != nil else {
                throw Invalid(message: "'response_format.json_schema.schema' must be a JSON Schema.", parameter: "response_format.json_schema.schema")
            }
            document = schema
        default:
            throw Invalid(message: "'response_format.type' must be text, json_object or json_schema.", parameter: "response_format.type")
        }
        do {
            let named = format["json_schema"]?["name"]?.stringValue.map { Self.named(document, $0) } ?? document
            return (try GenerationSchema(jsonSchema: named), document)
        } catch {
            throw Invalid(message: "The schema of 'response_format' is not supported: \(error)", parameter: "response_format.json_schema.schema")
        }
    }

    /// `document` with `name` as its title, which the prompt's description of it uses.
    private static func named(_ document: JSONValue, _ name: String) -> JSONValue {
        guard var object = document.objectValue, object["title"] == nil else { return document }
        object.append(key: "title", value: .string(name))
        return .object(object)
    }

    /// The function tools and how the model may call them.
    private static func tools(_ value: JSONValue?, choice: JSONValue?) throws(Invalid) -> ([Transcript.ToolDefinition], GenerationOptions.ToolCallingMode.Kind) {
        var definitions: [Transcript.ToolDefinition] = []
        if let value, !value.isNull {
            guard let list = value.arrayValue else { throw Invalid(message: "'tools' must be an array.", parameter: "tools") }
            for (index, tool) in list.enumerated() {
                let path = "tools[\(index)]"
                guard tool["type"]?.stringValue == "function", let function = tool["function"], let name = function["name"]?.stringValue,
                    !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
                else {
                    throw Invalid(message: "'\(path)' must be a function with a name of letters, digits, '_' and '-'.", parameter: path)
                }
                guard !definitions.contains(where: { $0.name == name }) else { throw Invalid(message: "Two tools are named '\(name)'.", parameter: path) }
                let parameters = function["parameters"] ?? .object(["type": .string("object"), "properties": .object([:])])
                do {
                    definitions.append(
                        Transcript.ToolDefinition(
                            name: name, description: function["description"]?.stringValue ?? "", parameters: try GenerationSchema(jsonSchema: parameters)))
                } catch {
                    throw Invalid(message: "The parameters of '\(name)' are not supported: \(error)", parameter: path + ".function.parameters")
                }
            }
        }
        guard let choice, !choice.isNull else { return (definitions, .allowed) }
        switch choice.stringValue {
        case "none"?: return (definitions, .disallowed)
        case "auto"?: return (definitions, .allowed)
        case "required"?:
            guard !definitions.isEmpty else { throw Invalid(message: "'tool_choice' is required but there are no tools.", parameter: "tool_choice") }
            return (definitions, .required)
        default:
            // One named function: only it, called.
            guard let name = choice["function"]?["name"]?.stringValue, let tool = definitions.first(where: { $0.name == name }) else {
                throw Invalid(message: "'tool_choice' must be none, auto, required or a function of 'tools'.", parameter: "tool_choice")
            }
            return ([tool], .required)
        }
    }

    /// The sampling settings: temperature 0 is greedy; `top_k` or `top_p` (with `seed`) pick
    /// random sampling; `seed` alone, nucleus sampling at 0.9 with that seed; the stages of the
    /// sampling chain as ``samplingSettings(_:)`` reads them; `preset` names a ``SamplingPreset``
    /// (`faithful` turns off the default model's own).
    private static func options(_ object: JSONObject, toolMode: GenerationOptions.ToolCallingMode.Kind) throws(Invalid) -> GenerationOptions {
        let temperature = try number(object["temperature"], "temperature", in: 0...2)
        let topP = try number(object["top_p"], "top_p", in: 0...1)
        let topK = try integer(object["top_k"], "top_k", in: 0...Int(Int32.max))
        let seed = try integer(object["seed"], "seed", in: Int(Int64.min)...Int(Int64.max)).map { UInt64(bitPattern: Int64($0)) }
        let newer = try integer(object["max_completion_tokens"], "max_completion_tokens", in: 1...Int(Int32.max))
        let older = try integer(object["max_tokens"], "max_tokens", in: 1...Int(Int32.max))
        let maximum = newer ?? older
        let sampling: GenerationOptions.SamplingMode?
        if temperature == 0 {
            sampling = .greedy
        } else if let topK, topK > 0 {
            sampling = .random(top: topK, seed: seed)
        } else if let topP {
            sampling = .random(probabilityThreshold: topP, seed: seed)
        } else if let seed {
            sampling = .random(probabilityThreshold: 0.9, seed: seed)
        } else {
            sampling = nil
        }
        let mode: GenerationOptions.ToolCallingMode =
            switch toolMode {
            case .allowed: .allowed
            case .required: .required
            case .disallowed: .disallowed
            }
        var options = GenerationOptions(
            samplingMode: sampling, temperature: temperature == 0 ? nil : temperature, maximumResponseTokens: maximum, toolCallingMode: mode)
        var settings = try samplingSettings(object)
        // Both truncations, as llama-server takes them: top-k picked the mode, top-p is a stage.
        if case .randomTopK? = sampling?.kind, let topP { settings.topP = topP }
        options.samplingSettings = settings == SamplingSettings() ? nil : settings
        if let value = object["preset"], !value.isNull {
            guard let preset = value.stringValue.flatMap(SamplingPreset.init(rawValue:)) else {
                let names = SamplingPreset.allCases.map(\.rawValue).joined(separator: ", ")
                throw Invalid(message: "'preset' must be one of \(names).", parameter: "preset")
            }
            options.samplingPreset = preset
        }
        return options
    }

    /// The stages of the sampling chain the request sets: OpenAI's `frequency_penalty`,
    /// `presence_penalty` and `logit_bias` (token ids as keys), and llama-server's `min_p`,
    /// `repeat_penalty`, `repeat_last_n` and `dry_*` fields.
    private static func samplingSettings(_ object: JSONObject) throws(Invalid) -> SamplingSettings {
        func float(_ name: String, in range: ClosedRange<Double>) throws(Invalid) -> Float? {
            try number(object[name], name, in: range).map { Float($0) }
        }
        var settings = SamplingSettings(
            minP: try number(object["min_p"], "min_p", in: 0...1), repetitionPenalty: try float("repeat_penalty", in: 0...10),
            frequencyPenalty: try float("frequency_penalty", in: -2...2), presencePenalty: try float("presence_penalty", in: -2...2),
            penaltyWindow: try integer(object["repeat_last_n"], "repeat_last_n", in: -1...Int(Int32.max)).map { $0 < 0 ? Int(Int32.max) : $0 })
        if let multiplier = try float("dry_multiplier", in: 0...100), multiplier != 0 {
            var dry = DRYSettings(multiplier: multiplier)
            if let base = try float("dry_base", in: 1...100) { dry.base = base }
            if let length = try integer(object["dry_allowed_length"], "dry_allowed_length", in: 1...Int(Int32.max)) { dry.allowedLength = length }
            if let window = try integer(object["dry_penalty_last_n"], "dry_penalty_last_n", in: -1...Int(Int32.max)) {
                dry.window = window < 0 ? nil : window
            }
            if let value = object["dry_sequence_breakers"], !value.isNull {
                guard let list = value.arrayValue, case let breakers = list.compactMap(\.stringValue), breakers.count == list.count else {
                    throw Invalid(message: "'dry_sequence_breakers' must be an array of strings.", parameter: "dry_sequence_breakers")
                }
                dry.sequenceBreakers = breakers
            }
            settings.dry = dry
        }
        if let value = object["logit_bias"], !value.isNull {
            guard let members = value.objectValue else {
                throw Invalid(message: "'logit_bias' must be an object of token ids and biases.", parameter: "logit_bias")
            }
            var bias: [Int32: Float] = [:]
            for member in members {
                let key = member.key
                guard let token = Int32(key), token >= 0 else {
                    throw Invalid(message: "The keys of 'logit_bias' must be token ids, not '\(key)'.", parameter: "logit_bias")
                }
                bias[token] = Float(try number(member.value, "logit_bias.\(key)", in: -100...100) ?? 0)
            }
            settings.logitBias = bias.isEmpty ? nil : bias
        }
        return settings
    }

    /// The messages as a transcript; the last user message carries the response format, so
    /// that the prompt describes the schema.
    private static func transcript(
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
}
