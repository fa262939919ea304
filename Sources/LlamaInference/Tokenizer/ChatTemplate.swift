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

/// How a model expects a conversation to be written, chosen from its GGUF's
/// `tokenizer.chat_template` or named.
public enum ChatTemplate: Sendable, Equatable {
    /// ChatML (`<|im_start|>role\ncontent<|im_end|>\n`), with the system message the template
    /// adds when the conversation has none.
    case chatML(defaultSystem: String?)

    /// Why no template can be chosen.
    public struct UnknownTemplateError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The templates that can be named: `chatml`.
    public static let names = ["chatml"]

    /// The template named `name`.
    public init(named name: String) throws(UnknownTemplateError) {
        switch name.lowercased() {
        case "chatml": self = .chatML(defaultSystem: nil)
        default: throw UnknownTemplateError(description: "no chat template is named '\(name)'; known: \(Self.names.joined(separator: ", "))")
        }
    }

    /// The template a GGUF file's `tokenizer.chat_template` describes.
    public init(file: GGUFFile) throws(UnknownTemplateError) {
        guard let source = file.metadata["tokenizer.chat_template"]?.string else {
            throw UnknownTemplateError(description: "the model has no tokenizer.chat_template; name one (\(Self.names.joined(separator: ", ")))")
        }
        try self.init(source: source)
    }

    /// The template a Jinja chat template source describes, recognized by its markers.
    public init(source: String) throws(UnknownTemplateError) {
        guard source.contains("<|im_start|>"), source.contains("<|im_end|>") else {
            throw UnknownTemplateError(description: "the model's chat template is not one this library knows; name one (\(Self.names.joined(separator: ", ")))")
        }
        // A default system message, as SmolLM2's template adds one: '<|im_start|>system\n...<|im_end|>'.
        var defaultSystem: String?
        if source.contains("!= 'system'"),
            let start = source.range(of: "'<|im_start|>system\n") ?? source.range(of: "'<|im_start|>system\\n"),
            let end = source.range(of: "<|im_end|>", range: start.upperBound..<source.endIndex)
        {
            defaultSystem = String(source[start.upperBound..<end.lowerBound])
        }
        self = .chatML(defaultSystem: defaultSystem)
    }

    /// The text of a conversation, with the opening of the assistant's turn when asked; special
    /// tokens appear as their text, to be tokenized with `parsingSpecialTokens`.
    public func render(_ messages: [ChatMessage], addingGenerationPrompt: Bool = true) -> String {
        switch self {
        case .chatML(let defaultSystem):
            var text = ""
            if let defaultSystem, messages.first?.role != .system {
                text += "<|im_start|>system\n\(defaultSystem)<|im_end|>\n"
            }
            for message in messages {
                text += "<|im_start|>\(message.role.rawValue)\n\(message.content)<|im_end|>\n"
            }
            if addingGenerationPrompt { text += "<|im_start|>assistant\n" }
            return text
        }
    }

    /// The text that ends an assistant's turn.
    public var endOfTurn: String {
        switch self {
        case .chatML: "<|im_end|>"
        }
    }
}
