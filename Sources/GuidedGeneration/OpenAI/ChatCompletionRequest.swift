import Foundation
import PartialJSON

/// An OpenAI `POST /v1/chat/completions` request, both ways: read from a body into what the
/// engine runs (as `guided serve` does), and written from a generation request
/// (``body(for:model:)``, as ``OpenAICompatibleLanguageModel`` sends it). Read: the messages as a
/// transcript (system and developer messages as the instructions, user messages as prompts,
/// assistant messages as responses or tool calls, tool messages as tool outputs), the schema of
/// `response_format`, the grammar of a text answer (`grammar`, `structured_outputs`,
/// `guided_*`, `response_format` of type `grammar`), the `tools` with `tool_choice`, and the sampling settings as
/// ``GenerationOptions``. Whatever does not fit is a ``ChatCompletionRequest/Invalid`` error that
/// names the field.
package struct ChatCompletionRequest: Sendable {
    /// A request the server refuses (400), with the field at fault.
    package struct Invalid: Error {
        package var message: String
        package var parameter: String?
    }

    package var generation: LanguageModelExecutorGenerationRequest
    package var stream: Bool
    /// The sequences that end the answer where the text first holds one (`stop`: a string or
    /// up to four), left out of the answer.
    package var stop: [String]
    package var includeUsage: Bool
    /// Whether the answer is a JSON value (`response_format` json_schema or json_object).
    package var isJSON: Bool { generation.schema != nil }

    /// Reads a request body, refusing what does not fit by the field at fault.
    package init(body: [UInt8]) throws(Invalid) {
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
        stop = try Self.stopSequences(object["stop"])
        try Self.checkTypes(object)
        let responseFormat = try Self.responseSchema(object["response_format"])
        let format = try responseFormat == nil ? Self.structuredOutputsSchema(object) : responseFormat
        let (tools, toolMode) = try Self.tools(object["tools"], choice: object["tool_choice"])
        var options = try Self.options(object, toolMode: toolMode)
        if try Self.bool(object["parallel_tool_calls"], "parallel_tool_calls") == false { options.maximumToolCallsPerTurn = 1 }
        options.textGrammar = try Self.textGrammar(object, asksForJSON: format != nil, hasTools: !tools.isEmpty && toolMode != .disallowed)
        let transcript = try Self.transcript(object["messages"], schema: format?.0, document: format?.1, tools: tools)
        generation = LanguageModelExecutorGenerationRequest(
            id: UUID(), transcript: transcript, enabledTools: toolMode == .disallowed ? [] : tools, schema: format?.0, generationOptions: options,
            contextOptions: ContextOptions(), metadata: [:])
    }

    /// `stop`: a string, or an array of up to four strings, none empty.
    private static func stopSequences(_ value: JSONValue?) throws(Invalid) -> [String] {
        guard let value, !value.isNull else { return [] }
        let list = value.stringValue.map { [JSONValue.string($0)] } ?? value.arrayValue
        guard let list, list.count <= 4, case let strings = list.compactMap(\.stringValue), strings.count == list.count,
            !strings.contains(where: \.isEmpty)
        else {
            throw Invalid(message: "'stop' must be a string or an array of up to 4 strings, none of them empty.", parameter: "stop")
        }
        return strings
    }

    /// Checks the type of the protocol's fields that do not change the answer, and refuses those
    /// asking for what the server does not give.
    private static func checkTypes(_ object: JSONObject) throws(Invalid) {
        for name in ["model", "user", "service_tier"] {
            if let value = object[name], !value.isNull, value.stringValue == nil {
                throw Invalid(message: "'\(name)' must be a string.", parameter: name)
            }
        }
        _ = try bool(object["store"], "store")
        if let value = object["metadata"], !value.isNull, value.objectValue == nil {
            throw Invalid(message: "'metadata' must be an object.", parameter: "metadata")
        }
        if try bool(object["logprobs"], "logprobs") == true {
            throw Invalid(message: "'logprobs' is not supported.", parameter: "logprobs")
        }
        if let count = try integer(object["top_logprobs"], "top_logprobs", in: 0...20), count > 0 {
            throw Invalid(message: "'top_logprobs' is not supported.", parameter: "top_logprobs")
        }
    }

    static func bool(_ value: JSONValue?, _ name: String) throws(Invalid) -> Bool? {
        guard let value, !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw Invalid(message: "'\(name)' must be true or false.", parameter: name) }
        return bool
    }

    static func number(_ value: JSONValue?, _ name: String, in range: ClosedRange<Double>) throws(Invalid) -> Double? {
        guard let value, !value.isNull else { return nil }
        guard let number = try? value.numberValue?.doubleValue(), range.contains(number) else {
            throw Invalid(message: "'\(name)' must be a number from \(range.lowerBound) to \(range.upperBound).", parameter: name)
        }
        return number
    }

    static func integer(_ value: JSONValue?, _ name: String, in range: ClosedRange<Int>) throws(Invalid) -> Int? {
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
        case "grammar"?:
            // A text grammar, read with the other grammar fields.
            guard let grammar = format["grammar"], grammar.stringValue != nil || grammar["definition"]?.stringValue != nil else {
                throw Invalid(
                    message: "'response_format.grammar' must be the grammar's text, or an object with its 'definition' and 'syntax' (lark, regex or gbnf).",
                    parameter: "response_format.grammar")
            }
            return nil
        case "json_object"?:
            document = .object(["type": .string("object")])
        case "json_schema"?:
            guard let schema = format["json_schema"]?["schema"], schema.objectValue != nil || schema.boolValue != nil else {
                throw Invalid(message: "'response_format.json_schema.schema' must be a JSON Schema.", parameter: "response_format.json_schema.schema")
            }
            document = schema
        default:
            throw Invalid(message: "'response_format.type' must be text, json_object, json_schema or grammar.", parameter: "response_format.type")
        }
        // `json_schema.name` identifies the format to the protocol and is not shown to the model:
        // the prompt describes the schema document alone, as for a session's request.
        return try schema(of: document, field: "response_format", parameter: "response_format.json_schema.schema")
    }

    /// The schema of a document a request sends, with the document; refused naming the field.
    private static func schema(of document: JSONValue, field: String, parameter: String) throws(Invalid) -> (GenerationSchema, JSONValue) {
        do {
            return (try GenerationSchema(jsonSchema: document), document)
        } catch {
            throw Invalid(message: "The schema of '\(field)' is not supported: \(error)", parameter: parameter)
        }
    }

    /// vLLM's `structured_outputs.json`: a JSON Schema (as an object or as its text), read as
    /// `response_format` json_schema is; refused beside a JSON `response_format`.
    private static func structuredOutputsSchema(_ object: JSONObject) throws(Invalid) -> (GenerationSchema, JSONValue)? {
        guard let value = object["structured_outputs"]?["json"], !value.isNull else { return nil }
        let parameter = "structured_outputs.json"
        var document = value
        if let text = value.stringValue {
            guard let parsed = try? JSONValue(parsing: text) else { throw Invalid(message: "'\(parameter)' is not JSON.", parameter: parameter) }
            document = parsed
        }
        guard document.objectValue != nil || document.boolValue != nil else {
            throw Invalid(message: "'\(parameter)' must be a JSON Schema.", parameter: parameter)
        }
        return try schema(of: document, field: parameter, parameter: parameter)
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
}
