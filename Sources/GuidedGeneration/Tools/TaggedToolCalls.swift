import Foundation
import PartialJSON

/// The tool-call format of models whose own chat template presents the tools and writes calls
/// in `<tool_call>` tags, as Qwen2.5's does (``ToolCallFormat/modelTemplate``): the template
/// lists the tools in the system message, and the model writes either its answer, or one or more
/// blocks
///
/// ```
/// <tool_call>
/// {"name": "get_weather", "arguments": {"city": "Paris"}}
/// </tool_call>
/// ```
///
/// one after the other, a line break between two. The grammar of a turn lets the model write
/// text (or, with a schema, the schema's JSON) or open its first call tag; inside a call, the
/// name is one of the tools' and the arguments follow that tool's schema. Past calls go back to
/// the template as the `tool_calls` of assistant messages, and outputs as `tool` messages, which
/// it writes in its own format.
enum TaggedToolCalls {
    /// The tag that opens a call.
    static let opening = "<tool_call>"
    /// The tag that closes a call.
    static let closing = "</tool_call>"
    /// The most calls in one turn, as in ``ToolTurnSchema/maximumCalls``.
    static let maximumCalls = ToolTurnSchema.maximumCalls

    /// The tools as chat templates take them: OpenAI's function objects, `{"type": "function",
    /// "function": {"name", "description", "parameters"}}` (no parameters when the definition
    /// leaves its schema out of the prompt).
    static func templateTools(_ definitions: [Transcript.ToolDefinition]) -> [JSONValue] {
        definitions.map { definition in
            var function: JSONObject = ["name": .string(definition.name), "description": .string(definition.description)]
            if let parameters = definition.presentedParameters { function.append(key: "parameters", value: parameters) }
            return .object(["type": .string("function"), "function": .object(function)])
        }
    }

    /// The messages of a transcript for a template that writes tool calls itself: as
    /// ``ConversationRenderer/messages(of:)`` renders them, but with the instructions' text alone
    /// in the system message (the template presents the tools), calls as the `toolCalls` of
    /// assistant messages, each output as a `tool` message, and answers as they are (text, or a
    /// structured answer's JSON).
    static func messages(of transcript: Transcript) -> [ConversationMessage] {
        var messages: [ConversationMessage] = []
        for entry in transcript {
            switch entry {
            case .instructions(let instructions):
                let text = instructions.segments.text
                if !text.isEmpty { messages.append(ConversationMessage(role: .system, content: text)) }
            case .prompt(let prompt):
                messages.append(ConversationMessage(role: .user, content: prompt.segments.text))
            case .response(let response):
                messages.append(ConversationMessage(role: .assistant, content: text(of: response)))
            case .toolCalls(let calls):
                let toolCalls = calls.map { ConversationMessage.ToolCall(name: $0.toolName, arguments: $0.arguments.jsonValue) }
                messages.append(ConversationMessage(role: .assistant, content: "", toolCalls: toolCalls))
            case .toolOutput(let output):
                messages.append(ConversationMessage(role: .tool, content: output.segments.text))
            case .reasoning, .data:
                continue
            }
        }
        if let description = ConversationRenderer.schemaDescription(of: transcript) {
            if messages.first?.role == .system {
                messages[0].content += "\n\n" + description
            } else {
                messages.insert(ConversationMessage(role: .system, content: description), at: 0)
            }
        }
        return messages
    }

    /// An answer's text as the model wrote it: its text, or a structured answer's JSON.
    private static func text(of response: Transcript.Response) -> String {
        if response.segments.count == 1, case .structure(let segment) = response.segments[0] { return segment.content.jsonString }
        return response.segments.text
    }

    /// The Lark grammar of a turn: the answer (text that does not open a call tag, or the JSON
    /// of `answer`, a JSON Schema) or one to `maximumCalls` calls of `tools` (clamped to 1 and
    /// ``maximumCalls``); only calls with `requiresCall`. Each call is `<tool_call>`, a line
    /// break, `{"name": "NAME", "arguments": ARGUMENTS}` with the arguments of that tool's
    /// schema, a line break and `</tool_call>`; calls are separated by a line break.
    static func grammar(
        tools: [Transcript.ToolDefinition], answer: JSONValue?, requiresCall: Bool, maximumCalls: Int? = nil
    ) throws -> String {
        var lines: [String] = []
        let limit = min(max(maximumCalls ?? Self.maximumCalls, 1), Self.maximumCalls)
        let answerRule = answer.map { "%json " + $0.jsonString } ?? "TEXT"
        if tools.isEmpty {
            lines.append("start: " + answerRule)
        } else {
            lines.append(requiresCall ? "start: calls" : "start: " + answerRule + " | calls")
            lines.append("calls: call" + (limit > 1 ? " (\"\\n\" call) ~ 0..\(limit - 1)" : ""))
            let alternatives = tools.indices.map { "tool\($0)" }.joined(separator: " | ")
            lines.append("call: " + literal(opening + "\n{\"name\": \"") + " (" + alternatives + ") " + literal("}\n" + closing))
            for (index, tool) in tools.enumerated() {
                let schema = try tool.parameters.embeddedJSONSchema()
                let name = String(JSONValue.string(tool.name).jsonString.dropFirst().dropLast())
                lines.append("tool\(index): " + literal(name + "\", \"arguments\": ") + " %json " + schema.jsonString)
            }
        }
        if answer == nil { lines.append("TEXT: " + textExpression) }
        return lines.joined(separator: "\n")
    }

    /// A Lark string literal of `text`.
    private static func literal(_ text: String) -> String {
        var escaped = "\""
        for character in text.unicodeScalars {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped + "\""
    }

    /// Text that leaves the opening tag from its first characters: a proper prefix of the tag,
    /// then a character that does not continue it, then anything (a proper prefix of the tag
    /// alone is not an answer).
    private static var textExpression: String {
        let tag = Array(opening)
        let branches = tag.indices.map { String(tag[..<$0]) + "[^" + String(tag[$0]) + "]" }
        return "/(" + branches.joined(separator: "|") + ")(.|\\n)*/"
    }

    /// The calls a turn's text holds, when it holds calls (it begins with the opening tag);
    /// `nil` for an answer. Each call's arguments are read as JSON.
    ///
    /// - Throws: when a call is not `{"name": …, "arguments": {…}}` JSON between the tags.
    static func calls(in text: String) throws -> [(name: String, arguments: String)]? {
        var rest = Substring(text).drop { $0.isWhitespace }
        guard rest.hasPrefix(opening) else { return nil }
        var calls: [(name: String, arguments: String)] = []
        while rest.hasPrefix(opening) {
            rest = rest.dropFirst(opening.count)
            let end = rest.range(of: closing)?.lowerBound ?? rest.endIndex
            let body = rest[..<end]
            guard case .object(let object) = try JSONValue(parsing: String(body).trimmingCharacters(in: .whitespacesAndNewlines)),
                case .string(let name)? = object["name"]
            else {
                throw TaggedCallError(text: String(body))
            }
            let arguments = object["arguments"] ?? .object([:])
            calls.append((name, arguments.jsonString))
            rest = rest[end...].dropFirst(closing.count).drop { $0.isWhitespace }
        }
        return calls
    }

    /// A call between the tags that is not a call's JSON.
    struct TaggedCallError: Error, CustomStringConvertible {
        let text: String
        var description: String { "the call \(text.prefix(200)) is not {\"name\": …, \"arguments\": {…}}" }
    }
}
