/// How a model expects a conversation to be written: the model's own chat template, run by the
/// Jinja interpreter; a built-in format (the one a model's architecture uses when its file has no
/// template); or a built-in format named.
public enum ChatTemplate: Sendable, Equatable {
    /// ChatML (`<|im_start|>role\ncontent<|im_end|>\n`: SmolLM2, Qwen), with the system message
    /// the template adds when the conversation has none.
    case chatML(defaultSystem: String?)
    /// Gemma (`<start_of_turn>user\ncontent<end_of_turn>\n`, the assistant called `model`), the
    /// system message put before the first user message, as Gemma 3's template does.
    case gemma
    /// Llama 3 (`<|start_header_id|>role<|end_header_id|>\n\ncontent<|eot_id|>`).
    case llama3
    /// Phi-3 and Phi-4 mini (`<|role|>\ncontent<|end|>\n`).
    case phi
    /// A model's own Jinja template.
    case jinja(JinjaChatTemplate)

    /// Why no template can be chosen.
    public struct UnknownTemplateError: Error, Sendable, CustomStringConvertible {
        public let description: String

        /// The error that `description` explains.
        public init(description: String) {
            self.description = description
        }
    }

    /// The templates that can be named.
    public static let names = ["chatml", "gemma", "llama3", "phi"]

    /// The template named `name`.
    public init(named name: String) throws(UnknownTemplateError) {
        switch name.lowercased() {
        case "chatml": self = .chatML(defaultSystem: nil)
        case "gemma": self = .gemma
        case "llama3": self = .llama3
        case "phi": self = .phi
        default: throw UnknownTemplateError(description: "no chat template is named '\(name)'; known: \(Self.names.joined(separator: ", "))")
        }
    }

    /// The built-in format a Jinja chat template source writes, recognized by its markers.
    public init(source: String) throws(UnknownTemplateError) {
        if source.contains("<start_of_turn>") {
            self = .gemma
            return
        }
        if source.contains("<|start_header_id|>") {
            self = .llama3
            return
        }
        if source.contains("<|assistant|>"), source.contains("<|end|>") {
            self = .phi
            return
        }
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
    /// tokens appear as their text, to be tokenized with `parsingSpecialTokens`. Only a model's
    /// own template can fail: when it raises an exception for the conversation (a role it does
    /// not accept), or uses a construct the interpreter lacks on a path the check at load did
    /// not take.
    public func render(_ messages: [ChatMessage], addingGenerationPrompt: Bool = true) throws(JinjaError) -> String {
        var text = ""
        switch self {
        case .jinja(let template):
            text = try template.render(messages, addingGenerationPrompt: addingGenerationPrompt)
        case .chatML(let defaultSystem):
            if let defaultSystem, messages.first?.role != .system {
                text += "<|im_start|>system\n\(defaultSystem)<|im_end|>\n"
            }
            for message in messages {
                text += "<|im_start|>\(message.role.rawValue)\n\(message.content)<|im_end|>\n"
            }
            if addingGenerationPrompt { text += "<|im_start|>assistant\n" }
        case .gemma:
            text = "<bos>"
            var system: String?
            for message in messages {
                switch message.role {
                case .system:
                    system = message.content
                    continue
                case .assistant:
                    text += "<start_of_turn>model\n"
                case .user, .tool:
                    text += "<start_of_turn>user\n"
                    if let prefix = system { text += prefix + "\n\n" }
                    system = nil
                }
                text += message.content + "<end_of_turn>\n"
            }
            if addingGenerationPrompt { text += "<start_of_turn>model\n" }
        case .llama3:
            text = "<|begin_of_text|>"
            for message in messages {
                text += "<|start_header_id|>\(message.role.rawValue)<|end_header_id|>\n\n\(message.content)<|eot_id|>"
            }
            if addingGenerationPrompt { text += "<|start_header_id|>assistant<|end_header_id|>\n\n" }
        case .phi:
            for message in messages {
                text += "<|\(message.role.rawValue)|>\n\(message.content)<|end|>\n"
            }
            if addingGenerationPrompt { text += "<|assistant|>\n" }
        }
        return text
    }

    /// The text that ends an assistant's turn.
    public var endOfTurn: String {
        switch self {
        case .chatML: "<|im_end|>"
        case .gemma: "<end_of_turn>"
        case .llama3: "<|eot_id|>"
        case .phi: "<|end|>"
        case .jinja(let template): template.endOfTurn
        }
    }
}
