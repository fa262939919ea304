/// What a dynamic profile comes to before one request: the instructions and tools, and each
/// setting the profile gives (`nil` where it leaves the session's own). Where two modifiers
/// set the same thing, the one nearer the profile wins; history transforms and hooks all run,
/// the nearest first.
struct ResolvedProfile {
    var instructions: ResolvedInstructions?
    var model: (any LanguageModel)?
    var temperature: Double?
    var samplingMode: GenerationOptions.SamplingMode?
    var reasoningLevel: ContextOptions.ReasoningLevel?
    var maximumResponseTokens: Int?
    var toolCallingMode: GenerationOptions.ToolCallingMode?
    var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?
    /// Which way each condition of the body went, the profile's identity: the hooks of
    /// activation run when it changes.
    var branches: [Bool] = []
    var historyTransforms: [([Transcript.Entry]) -> [Transcript.Entry]] = []
    var hooks = ProfileHooks()

    /// The options of a request with the profile's settings over what the request leaves unset.
    func options(over options: GenerationOptions) -> GenerationOptions {
        var result = options
        if result.temperature == nil { result.temperature = temperature }
        if result.samplingMode == nil { result.samplingMode = samplingMode }
        if result.maximumResponseTokens == nil { result.maximumResponseTokens = maximumResponseTokens }
        if result.toolCallingMode == nil { result.toolCallingMode = toolCallingMode }
        return result
    }

    /// The history as the profile's transforms send it to the model.
    func history(_ entries: [Transcript.Entry]) -> [Transcript.Entry] {
        historyTransforms.reduce(entries) { $1($0) }
    }
}

/// The code a profile runs at points of a request.
struct ProfileHooks {
    var onPrompt: [() async throws -> Void] = []
    var onResponse: [() async throws -> Void] = []
    var onToolCall: [(Transcript.ToolCall) async throws -> Void] = []
    var onToolOutput: [() async throws -> Void] = []
    var onReasoning: [() async throws -> Void] = []
    var onActivate: [() async throws -> Void] = []
    var onDeactivate: [() async throws -> Void] = []
}
