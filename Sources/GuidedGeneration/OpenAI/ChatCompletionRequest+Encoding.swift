import Foundation
import PartialJSON

extension ChatCompletionRequest {
    /// The body of a request for `request`: the transcript as messages (instructions as the
    /// system message, prompts as user messages with the schema described when the prompt asks
    /// for it, responses and tool calls as assistant messages, tool outputs as tool messages), the
    /// schema as a strict `response_format`, the enabled tools, and the options as the protocol's
    /// sampling fields.
    static func body(for request: LanguageModelExecutorGenerationRequest, model: String) throws -> JSONValue {
        var members: JSONObject = [
            "model": .string(model),
            "messages": .array(try messages(of: request.transcript)),
            "stream": .bool(true),
            "stream_options": .object(["include_usage": .bool(true)]),
        ]
        members.members += samplingMembers(request.generationOptions)
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
            let mode = request.generationOptions.toolCallingMode
            let choice: JSONValue =
                switch mode?.kind {
                case .required:
                    mode?.toolName.map { .object(["type": .string("function"), "function": .object(["name": .string($0)])]) } ?? .string("required")
                case .disallowed: .string("none")
                case .allowed, nil: .string("auto")
                }
            members.members.append(.init(key: "tool_choice", value: choice))
            if request.generationOptions.maximumToolCallsPerTurn == 1 {
                members.members.append(.init(key: "parallel_tool_calls", value: .bool(false)))
            }
        }
        return .object(members)
    }

    /// A name for `response_format`: the schema's title, made of the characters the protocol
    /// allows, else `response`.
    static func name(of schema: GenerationSchema) -> String {
        let allowed = (schema.typeName ?? "").unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
        return allowed.isEmpty ? "response" : String(String.UnicodeScalarView(allowed.prefix(64)))
    }
}
