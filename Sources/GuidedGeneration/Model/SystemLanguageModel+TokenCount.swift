import Foundation

extension SystemLanguageModel {
    /// How many tokens a prompt takes, as the model's tokenizer counts them (loading the model
    /// when needed).
    public nonisolated(nonsending) func tokenCount(for prompt: some PromptRepresentable) async throws -> Int {
        try await count(prompt.promptRepresentation.description)
    }

    /// How many tokens instructions take.
    public nonisolated(nonsending) func tokenCount(for instructions: Instructions) async throws -> Int {
        try await count(instructions.description)
    }

    /// How many tokens the description of a schema takes in a prompt.
    public nonisolated(nonsending) func tokenCount(for schema: GenerationSchema) async throws -> Int {
        try await count(SchemaPromptText.render(try schema.jsonSchema()))
    }

    /// How many tokens the presentation of tools takes in the instructions.
    public nonisolated(nonsending) func tokenCount(for tools: [any Tool]) async throws -> Int {
        try await count(ToolTurnFormat.instructions(for: tools.definitions))
    }

    /// How many tokens transcript entries take, rendered as the model reads them.
    public nonisolated(nonsending) func tokenCount(for transcriptEntries: some Collection<Transcript.Entry>) async throws -> Int {
        let messages = ConversationRenderer.messages(of: Transcript(entries: transcriptEntries))
        return try await run { runtime in try runtime.tokens(ofConversation: messages, withinContext: false).count }
    }

    private func count(_ text: String) async throws -> Int {
        try await run { runtime in runtime.model.tokenize(text, parsingSpecialTokens: false).count }
    }

    /// Runs `body` on the loaded model, away from the caller's thread.
    private func run<T: Sendable>(_ body: @escaping @Sendable (ModelRuntime) throws -> T) async throws -> T {
        try await onDetachedThread { [self] in try body(try runtime()) }
    }
}
