import ChatTemplates
import Foundation
import PartialJSON
import Testing

/// Conversations with tools through a model's own template: the tools presented in the system
/// message, an assistant's calls written in the template's format, and outputs as tool messages.
@Suite struct ToolCallRenderingTests {
    /// Qwen2.5's template, from the fixture of real templates.
    static func qwenTemplate() throws -> JinjaChatTemplate {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/chat-templates.json")
        guard case .dictionary(let fixture) = try JinjaValue(json: try String(contentsOf: url, encoding: .utf8)), case .array(let templates)? = fixture["templates"]
        else {
            throw FixtureError()
        }
        for case .dictionary(let entry) in templates where entry["name"] == "Qwen-Qwen2.5-7B-Instruct.jinja" {
            guard case .string(let source)? = entry["source"] else { break }
            return try JinjaChatTemplate(source: source, endOfSequence: "<|im_end|>")
        }
        throw FixtureError()
    }

    struct FixtureError: Error {}

    static let weather = #"{"type": "function", "function": {"name": "get_weather", "description": "The weather in a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}"#

    @Test func callsAndOutputsInQwensFormat() throws {
        let template = try Self.qwenTemplate()
        let paris = ChatMessage.ToolCall(name: "get_weather", arguments: try JSONValue(parsing: #"{"city":"Paris"}"#))
        let rome = ChatMessage.ToolCall(name: "get_weather", arguments: try JSONValue(parsing: #"{"city":"Rome"}"#))
        let messages = [
            ChatMessage(role: .system, content: "Be brief."),
            ChatMessage(role: .user, content: "Weather in Paris and Rome?"),
            ChatMessage(role: .assistant, content: "", toolCalls: [paris, rome]),
            ChatMessage(role: .tool, content: "Sunny"),
            ChatMessage(role: .tool, content: "Rainy"),
        ]
        let text = try template.render(messages, tools: [JinjaValue(jsonValue: try JSONValue(parsing: Self.weather))])
        let expected = """
            <|im_start|>system
            Be brief.

            # Tools

            You may call one or more functions to assist with the user query.

            You are provided with function signatures within <tools></tools> XML tags:
            <tools>
            {"type": "function", "function": {"name": "get_weather", "description": "The weather in a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
            </tools>

            For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
            <tool_call>
            {"name": <function-name>, "arguments": <args-json-object>}
            </tool_call><|im_end|>
            <|im_start|>user
            Weather in Paris and Rome?<|im_end|>
            <|im_start|>assistant
            <tool_call>
            {"name": "get_weather", "arguments": {"city": "Paris"}}
            </tool_call>
            <tool_call>
            {"name": "get_weather", "arguments": {"city": "Rome"}}
            </tool_call><|im_end|>
            <|im_start|>user
            <tool_response>
            Sunny
            </tool_response>
            <tool_response>
            Rainy
            </tool_response><|im_end|>
            <|im_start|>assistant

            """
        #expect(text == expected)
    }

    @Test func messagesWithoutCallsRenderAsBefore() throws {
        let template = try Self.qwenTemplate()
        let messages = [ChatMessage(role: .user, content: "Hi"), ChatMessage(role: .assistant, content: "Hello")]
        #expect(try template.render(messages, addingGenerationPrompt: false) == "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n")
        #expect(ChatMessage(role: .user, content: "Hi").toolCalls.isEmpty)
    }
}
