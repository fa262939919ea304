import PartialJSON

/// A message of a conversation, as chat templates render them.
public struct ChatMessage: Sendable, Equatable {
    /// Who speaks.
    public enum Role: String, Sendable {
        case system, user, assistant, tool
    }

    /// A call of a tool in an assistant's message, as templates read it from `tool_calls`.
    public struct ToolCall: Sendable, Equatable {
        /// The tool's name.
        public var name: String
        /// The arguments, a JSON object: templates write it with `tojson`.
        public var arguments: JSONValue

        /// A call of the tool `name` with `arguments`.
        public init(name: String, arguments: JSONValue) {
            self.name = name
            self.arguments = arguments
        }
    }

    public var role: Role
    public var content: String
    /// The tools an assistant's message calls, which a template that knows tools writes in its
    /// own format after the content; empty for other messages.
    public var toolCalls: [ToolCall]

    public init(role: Role, content: String) {
        self.init(role: role, content: content, toolCalls: [])
    }

    /// A message that may call tools (an assistant's).
    public init(role: Role, content: String, toolCalls: [ToolCall]) {
        self.role = role
        self.content = content
        self.toolCalls = toolCalls
    }
}
