import Foundation

/// What a session asks a ``LanguageModelExecutor`` for: the next entry of a transcript, with the
/// tools the model may call, the schema of a structured response, and how to generate.
public struct LanguageModelExecutorGenerationRequest: Sendable {
    /// An id for logging and tracing.
    public var id: UUID
    /// The transcript to generate the next entry for; it ends with the prompt, or with the
    /// outputs of the tools the model called.
    public var transcript: Transcript
    /// The tools the model may call (none when tool calling is disallowed).
    public var enabledToolDefinitions: [Transcript.ToolDefinition]
    /// The schema the response must match; `nil` for text.
    public var schema: GenerationSchema?
    /// How tokens are chosen, and how many.
    public var generationOptions: GenerationOptions
    /// How the model is prompted.
    public var contextOptions: ContextOptions
    /// What the app attached to the request.
    public var metadata: [String: GeneratedContent]

    /// Creates a request.
    public init(
        id: UUID, transcript: Transcript, enabledTools: [Transcript.ToolDefinition], schema: GenerationSchema? = nil,
        generationOptions: GenerationOptions, contextOptions: ContextOptions, metadata: [String: any ConvertibleToGeneratedContent]
    ) {
        self.id = id
        self.transcript = transcript
        self.enabledToolDefinitions = enabledTools
        self.schema = schema
        self.generationOptions = generationOptions
        self.contextOptions = contextOptions
        self.metadata = metadata.mapValues(\.generatedContent)
    }
}
