import Foundation
import Synchronization

/// A conversation with a language model: instructions set once, then prompts, each answered with
/// text, with generated content of a schema, or with a value of a `Generable` type, whole or
/// streamed as snapshots.
///
/// A session answers one request at a time; its transcript carries every turn over to the next,
/// and its context on the model keeps what was already computed, so that a follow-up costs only
/// its new tokens.
public final class LanguageModelSession: Sendable {
    /// The model, as every request runs on it: through its executor.
    let model: ProviderModel
    /// The tools the model may call.
    let tools: [any Tool]
    private let state: Mutex<State>

    private struct State {
        var transcript: Transcript
        var isResponding = false
        var statistics: GenerationStatistics?
        var usage = Usage.zero
        var maximumToolRounds = 8
    }

    /// Creates a session on `model` with tools and instructions.
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: Instructions? = nil) {
        self.init(model: model, tools: tools, transcript: Transcript(entries: Self.instructionsEntries(instructions, tools: tools)))
    }

    /// Creates a session on `model` with tools and instructions given as text.
    @_disfavoredOverload
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: String? = nil) {
        self.init(model: model, tools: tools, instructions: instructions.map { Instructions($0) })
    }

    /// Creates a session on `model` with tools and instructions written with a builder.
    public convenience init(
        model: SystemLanguageModel = .default, tools: [any Tool] = [], @InstructionsBuilder instructions: () throws -> Instructions
    ) rethrows {
        self.init(model: model, tools: tools, instructions: try instructions())
    }

    /// Creates a session on `model` that continues a transcript, with tools the model may call.
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], transcript: Transcript) {
        self.init(provider: ProviderModel(model), tools: tools, transcript: transcript)
    }

    /// Creates a session on any model with tools and instructions.
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: Instructions? = nil) {
        self.init(model: model, tools: tools, transcript: Transcript(entries: Self.instructionsEntries(instructions, tools: tools)))
    }

    /// Creates a session on any model with tools and instructions given as text.
    @_disfavoredOverload
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: String? = nil) {
        self.init(model: model, tools: tools, instructions: instructions.map { Instructions($0) })
    }

    /// Creates a session on any model with tools and instructions written with a builder.
    public convenience init<Failure>(
        model: some LanguageModel, tools: [any Tool] = [], @InstructionsBuilder instructions: () throws(Failure) -> Instructions
    ) throws(Failure) {
        self.init(model: model, tools: tools, instructions: try instructions())
    }

    /// Creates a session on any model that continues a transcript, with tools the model may call.
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], transcript: Transcript) {
        self.init(provider: ProviderModel(model), tools: tools, transcript: transcript)
    }

    private init(provider: ProviderModel, tools: [any Tool], transcript: Transcript) {
        model = provider
        self.tools = tools
        state = Mutex(State(transcript: transcript))
    }

    /// The instructions entry: the instructions and the tools' definitions, when there are any.
    private static func instructionsEntries(_ instructions: Instructions?, tools: [any Tool]) -> [Transcript.Entry] {
        guard instructions != nil || !tools.isEmpty else { return [] }
        let definitions = tools.definitions
        return [.instructions(Transcript.Instructions(segments: instructions?.transcriptSegments ?? [], toolDefinitions: definitions))]
    }

    /// How many turns of tool calls one request may take before the model must have answered;
    /// past it the request fails with ``ToolRoundLimitError``.
    public var maximumToolRounds: Int {
        get { state.withLock { $0.maximumToolRounds } }
        set { state.withLock { $0.maximumToolRounds = max(1, newValue) } }
    }

    /// Everything said in the session so far.
    public var transcript: Transcript { state.withLock { $0.transcript } }

    /// Whether the session is answering a request.
    public var isResponding: Bool { state.withLock { $0.isResponding } }

    /// Figures of the last response: tokens read, written and forced, and timings.
    public var statistics: GenerationStatistics? { state.withLock { $0.statistics } }

    /// The tokens the session's requests have read and written so far.
    public var usage: Usage { state.withLock { $0.usage } }

    /// Loads the model and computes the instructions (and `promptPrefix`, when given) ahead of
    /// the first request, in the background, so that the first response starts sooner.
    public func prewarm(promptPrefix: Prompt? = nil) {
        var entries = transcript.entries
        if let promptPrefix { entries.append(.prompt(Transcript.Prompt(segments: promptPrefix.transcriptSegments))) }
        let prewarm = model.prewarm
        let ahead = Transcript(entries: entries)
        Thread.detachNewThread { prewarm(ahead) }
    }

    /// Marks the session busy; throws when it already is.
    func beginResponding() throws -> Transcript {
        try state.withLock { state in
            guard !state.isResponding else {
                throw GenerationError.concurrentRequests(
                    .init(debugDescription: "The session is already responding; wait for the response to complete before sending another request."))
            }
            state.isResponding = true
            return state.transcript
        }
    }

    /// Marks the session free, appending the entries of a completed request.
    func endResponding(appending entries: [Transcript.Entry], statistics: GenerationStatistics?, usage: Usage?) {
        state.withLock { state in
            state.transcript.entries += entries
            state.isResponding = false
            if let statistics { state.statistics = statistics }
            if let usage { state.usage = state.usage.adding(usage) }
        }
    }
}

extension Instructions {
    /// The instructions as transcript segments.
    var transcriptSegments: [Transcript.Segment] { segments.map(\.transcriptSegment) }
}

extension Prompt {
    /// The prompt as transcript segments.
    var transcriptSegments: [Transcript.Segment] { segments.map(\.transcriptSegment) }
}

extension PromptSegment {
    var transcriptSegment: Transcript.Segment {
        switch self {
        case .text(let text): .text(Transcript.TextSegment(content: text))
        case .structure(let content): .structure(Transcript.StructuredSegment(source: "prompt", content: content))
        case .attachment(let segment): .attachment(segment)
        }
    }
}
