/// A message of a conversation as a backend renders it with its chat template.
public struct ConversationMessage: Sendable, Equatable {
    /// Who speaks.
    public enum Role: String, Sendable {
        case system, user, assistant, tool
    }

    /// Who speaks.
    public var role: Role
    /// What is said.
    public var content: String

    /// Creates a message.
    public init(role: Role, content: String) {
        self.role = role
        self.content = content
    }
}
