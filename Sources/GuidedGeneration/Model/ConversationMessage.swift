import ChatTemplates

/// A message of a conversation as a backend renders it with its chat template: the chat
/// message type of `ChatTemplates`, whose templates render it.
public typealias ConversationMessage = ChatMessage
