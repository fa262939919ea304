import Foundation
import PartialJSON

/// How tools appear in the conversation the model reads, in the format of the function-calling
/// data that SmolLM2 and similar models were tuned on: the definitions in `<tools>` at the end of
/// the system message, the calls of a turn as `<tool_call>[{"name":…,"arguments":…}]</tool_call>`,
/// and each output in `<tool_response>` tags in a user turn.
enum ToolCallSyntax {
    /// The text that opens the calls of a turn.
    static let opener = "<tool_call>"
    /// The text that closes them.
    static let closer = "</tool_call>"

    /// The part of the system message that presents the tools (empty without tools).
    static func instructions(for definitions: [Transcript.ToolDefinition]) -> String {
        guard !definitions.isEmpty else { return "" }
        let lines = definitions.map { definition in
            var object: JSONObject = ["name": .string(definition.name), "description": .string(definition.description)]
            if definition.includesSchema, case .object(var schema)? = try? definition.parameters.jsonSchema() {
                schema.members.removeAll { $0.key == "$schema" }
                object.append(key: "parameters", value: .object(schema))
            }
            return JSONValue.object(object).jsonString
        }
        return """
            You can use these tools:
            <tools>
            \(lines.joined(separator: "\n"))
            </tools>
            To use tools, reply with only \(opener)[{"name": "the tool's name", "arguments": {…}}]\(closer). \
            Each result comes back inside <tool_response></tool_response>. \
            When you have what you need, answer without calling a tool.
            """
    }

    /// The text of a turn's calls, as the model writes it.
    static func text(of calls: Transcript.ToolCalls) -> String {
        let array = calls.map { "{\"name\":\(JSONValue.string($0.toolName).jsonString),\"arguments\":\($0.arguments.jsonString)}" }
        return opener + "[" + array.joined(separator: ",") + "]" + closer
    }

    /// The text of a tool's output.
    static func text(of output: Transcript.ToolOutput) -> String {
        "<tool_response>\n" + output.segments.text + "\n</tool_response>"
    }

    /// The calls in the content the model wrote between the opener and the closer.
    static func calls(in content: GeneratedContent) -> [Transcript.ToolCall] {
        guard case .array(let elements) = content.kind else { return [] }
        return elements.compactMap { element in
            guard case .structure(let properties, _) = element.kind, case .string(let name)? = properties["name"]?.kind,
                let arguments = properties["arguments"]
            else { return nil }
            // Without the identities that streaming gives content: calls are not streamed.
            let plain = (try? GeneratedContent(json: arguments.jsonString)) ?? arguments
            return Transcript.ToolCall(id: UUID().uuidString, toolName: name, arguments: plain)
        }
    }
}
