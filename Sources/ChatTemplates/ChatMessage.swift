/// A message of a conversation, as chat templates render them.
public struct ChatMessage: Sendable, Equatable {
    /// Who speaks.
    public enum Role: String, Sendable {
        case system, user, assistant, tool
    }

    public var role: Role
    public var content: String

    public init(role: Role, content: String) {
        self.role = role
        self.content = content
    }
}
