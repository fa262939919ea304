import ChatTemplates

extension ChatTemplate {
    /// The GGUF file's own `tokenizer.chat_template`, parsed and checked on a sample
    /// conversation (so that a construct the interpreter lacks is an error here, naming it) or,
    /// when the file has none, the format its architecture's models use
    /// (``ArchitectureTraits/chatTemplate``).
    public init(file: GGUFFile) throws(UnknownTemplateError) {
        do {
            if let template = try JinjaChatTemplate(file: file) {
                try template.validate()
                self = .jinja(template)
                return
            }
        } catch {
            throw UnknownTemplateError(
                description: "the model's chat template cannot be used: \(error); name a built-in one instead (\(Self.names.joined(separator: ", ")))")
        }
        guard let architecture = file.metadata["general.architecture"]?.string,
            let template = ArchitectureTraits(architecture: architecture)?.chatTemplate
        else {
            throw UnknownTemplateError(description: "the model has no tokenizer.chat_template; name one (\(Self.names.joined(separator: ", ")))")
        }
        self = template
    }
}

extension JinjaChatTemplate {
    /// The template of a GGUF file's `tokenizer.chat_template`, with the texts of its
    /// `tokenizer.ggml.bos_token_id` and `tokenizer.ggml.eos_token_id` tokens; `nil` when the
    /// file has no template.
    public init?(file: GGUFFile) throws(JinjaError) {
        guard let source = file.metadata["tokenizer.chat_template"]?.string else { return nil }
        let tokens = file.metadata["tokenizer.ggml.tokens"]?.array ?? []
        func text(ofTokenAt key: String) -> String {
            guard let id = file.metadata[key]?.integer, tokens.indices.contains(id) else { return "" }
            return tokens[id].string ?? ""
        }
        try self.init(
            source: source, beginningOfSequence: text(ofTokenAt: "tokenizer.ggml.bos_token_id"),
            endOfSequence: text(ofTokenAt: "tokenizer.ggml.eos_token_id"))
    }
}
