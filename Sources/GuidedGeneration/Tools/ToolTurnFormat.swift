import Foundation
import PartialJSON

/// How a session with tools talks with the model. Every turn of the model is one JSON object:
/// `{"tool_calls":[{"name":…,"arguments":…}]}` to call tools, or `{"answer":…}` with the answer
/// (text as a JSON string, or content of the requested schema), so that the choice between the
/// two is a choice between two keys that the instructions name, which even a small model makes
/// well. The tools are presented in `<tools>` at the end of the system message, and each output
/// comes back in `<tool_response>` tags in a user turn, as in the function-calling data that
/// SmolLM2 and similar models were tuned on. The default ``ToolCallFormat``; ``TaggedToolCalls``
/// is the model's own, where its template has one.
enum ToolTurnFormat {
    /// The key of the calls.
    static let callsKey = "tool_calls"
    /// The key of the answer.
    static let answerKey = "answer"

    /// The part of the system message that presents the tools (empty without tools).
    static func instructions(for definitions: [Transcript.ToolDefinition]) -> String {
        guard !definitions.isEmpty else { return "" }
        let lines = definitions.map { definition in
            var object: JSONObject = ["name": .string(definition.name), "description": .string(definition.description)]
            if let parameters = definition.presentedParameters { object.append(key: "parameters", value: parameters) }
            return JSONValue.object(object).jsonString
        }
        return """
            You can use these tools:
            <tools>
            \(lines.joined(separator: "\n"))
            </tools>
            Reply with JSON: either {"\(callsKey)":[{"name": "the tool's name", "arguments": {…}}]} to use tools, \
            or {"\(answerKey)": "your answer"} when you have what you need.
            """
    }

    /// The text of a turn's calls, as the model writes it.
    static func text(of calls: Transcript.ToolCalls) -> String {
        let array = calls.map { "{\"name\":\(JSONValue.string($0.toolName).jsonString),\"arguments\":\($0.arguments.jsonString)}" }
        return "{\"\(callsKey)\":[" + array.joined(separator: ",") + "]}"
    }

    /// The text of an answer, as the model writes it.
    static func text(of response: Transcript.Response) -> String {
        let value: String
        if response.segments.count == 1, case .structure(let segment) = response.segments[0] {
            value = segment.content.jsonString
        } else {
            value = JSONValue.string(response.segments.text).jsonString
        }
        return "{\"\(answerKey)\":" + value + "}"
    }

    /// The text of the outputs of a turn's calls, with a reminder of how to answer: small models
    /// otherwise tend to repeat the call they just made.
    static func text(of outputs: [Transcript.ToolOutput]) -> String {
        outputs.map { "<tool_response>\n" + $0.segments.text + "\n</tool_response>\n" }.joined()
            + "Reply with {\"\(answerKey)\": …} if this is what you needed."
    }

    /// What a turn holds: the calls, when the model called tools; otherwise the answer so far
    /// (`nil` while the turn has not said which).
    static func parts(of turn: GeneratedContent) -> (calls: GeneratedContent?, answer: GeneratedContent?) {
        guard case .structure(let properties, _) = turn.kind else { return (nil, nil) }
        return (properties[callsKey], properties[answerKey])
    }

    /// The calls in the content of a turn's calls.
    static func calls(in content: GeneratedContent) -> [Transcript.ToolCall] {
        guard case .array(let elements) = content.kind else { return [] }
        return elements.compactMap { element in
            guard case .structure(let properties, _) = element.kind, case .string(let name)? = properties["name"]?.kind,
                let arguments = properties["arguments"]
            else { return nil }
            return Transcript.ToolCall(id: UUID().uuidString, toolName: name, arguments: arguments.withoutIdentities)
        }
    }
}

extension GeneratedContent {
    /// The content without the identities that streaming gives it (calls are not streamed).
    fileprivate var withoutIdentities: GeneratedContent {
        var content = self
        content.id = nil
        switch kind {
        case .structure(let properties, let keys):
            content.kind = .structure(properties: properties.mapValues(\.withoutIdentities), orderedKeys: keys)
        case .array(let elements):
            content.kind = .array(elements.map(\.withoutIdentities))
        default:
            break
        }
        return content
    }
}

extension Transcript.ToolDefinition {
    /// The parameters' JSON Schema as the tool is presented to the model (without `$schema`);
    /// `nil` when the definition leaves its schema out of the prompt or it cannot be written.
    var presentedParameters: JSONValue? {
        includesSchema ? try? parameters.embeddedJSONSchema() : nil
    }
}
