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
    /// The model, as every request runs on it: through its executor (unless the profile
    /// names another).
    let model: ProviderModel
    /// The tools the model may call (unless the profile gives its own).
    let tools: [any Tool]
    /// The profile the session was made with, worked out again before every request.
    let profile: ProfileState?
    /// The executors of the models the session runs on, kept across requests and switches of
    /// model, with what they have computed.
    let executors: ExecutorStore
    /// The values the session shares with its profile, its dynamic instructions and its tools.
    public let properties = SessionPropertyValues()
    private let state: Mutex<State>

    private struct State {
        var transcript: Transcript
        var isResponding = false
        /// Whether the app set the transcript while the request in flight was running.
        var transcriptSetWhileResponding = false
        var statistics: GenerationStatistics?
        var usage = Usage.zero
        var maximumToolRounds = 8
        var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?
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
        self.init(model: model, tools: tools, transcript: transcript, profile: nil)
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
        self.init(model: model, tools: tools, transcript: transcript, profile: nil)
    }

    init(model: some LanguageModel, tools: [any Tool], transcript: Transcript, profile: ProfileState?) {
        executors = ExecutorStore()
        self.model = ProviderModel(model, executors: executors)
        self.tools = tools
        self.profile = profile
        state = Mutex(State(transcript: transcript))
        properties.attach(to: self)
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

    /// Everything said in the session so far. While a request runs, it holds the prompt and
    /// what the model and the tools have added so far.
    ///
    /// Set it between requests to rewrite the conversation (to shorten it, say). While the
    /// session is responding it cannot change: the value set is dropped, and the request in
    /// flight fails with ``LanguageModelSession/Error/transcriptMutationWhileResponding`` at its
    /// next step, its transcript treated as that of any failed request.
    public var transcript: Transcript {
        get { state.withLock { $0.transcript } }
        set {
            state.withLock { state in
                if state.isResponding {
                    state.transcriptSetWhileResponding = true
                } else {
                    state.transcript = newValue
                }
            }
        }
    }

    /// The transcript without its instructions entry; setting it keeps the instructions first.
    var history: ArraySlice<Transcript.Entry> {
        get { state.withLock { Self.split($0.transcript.entries).history } }
        set { state.withLock { $0.transcript.entries = Array(Self.split($0.transcript.entries).instructions + newValue) } }
    }

    /// The instructions entry, when the first entry is one, and the entries after it.
    static func split(_ entries: [Transcript.Entry]) -> (instructions: ArraySlice<Transcript.Entry>, history: ArraySlice<Transcript.Entry>) {
        let count = if case .instructions = entries.first { 1 } else { 0 }
        return (entries.prefix(count), entries.dropFirst(count))
    }

    /// What the transcript keeps of a request that fails; `nil` for the profile's choice, else
    /// ``TranscriptErrorHandlingPolicy/revertTranscript``.
    public var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy? {
        get { state.withLock { $0.transcriptErrorHandlingPolicy } }
        set { state.withLock { $0.transcriptErrorHandlingPolicy = newValue } }
    }

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

    /// Marks the session busy; throws when it already is. Returns the transcript as it is
    /// before the request, for a request that fails to go back to.
    func beginResponding() throws -> Transcript {
        try state.withLock { state in
            guard !state.isResponding else {
                throw GenerationError.concurrentRequests(
                    .init(debugDescription: "The session is already responding; wait for the response to complete before sending another request."))
            }
            state.isResponding = true
            state.transcriptSetWhileResponding = false
            return state.transcript
        }
    }

    /// Adds entries of the request in flight to the transcript.
    /// - Throws: ``LanguageModelSession/Error/transcriptMutationWhileResponding`` when the app
    ///   set the transcript while the request was running.
    func append(_ entries: [Transcript.Entry]) throws {
        try state.withLock { state in
            guard !state.transcriptSetWhileResponding else { throw Error.transcriptMutationWhileResponding }
            state.transcript.entries += entries
        }
    }

    /// Throws ``LanguageModelSession/Error/transcriptMutationWhileResponding`` when the app set
    /// the transcript while the request in flight was running.
    func checkTranscriptUnchanged() throws {
        try state.withLock { state in
            guard !state.transcriptSetWhileResponding else { throw Error.transcriptMutationWhileResponding }
        }
    }

    /// Replaces the instructions entry (or puts one first) when `entry` differs from it.
    func setInstructions(_ entry: Transcript.Instructions) {
        state.withLock { state in
            if case .instructions(let current) = state.transcript.entries.first {
                guard current.segments.text != entry.segments.text || current.toolDefinitions != entry.toolDefinitions else { return }
                var updated = entry
                updated.id = current.id
                state.transcript.entries[0] = .instructions(updated)
            } else {
                state.transcript.entries.insert(.instructions(entry), at: 0)
            }
        }
    }

    /// Marks the session free. A failed request's entries go (the transcript back to `failed`,
    /// what it was before) unless the policy, `policy` or else the session's, preserves them.
    func endResponding(failed saved: Transcript?, policy: TranscriptErrorHandlingPolicy?, statistics: GenerationStatistics?, usage: Usage?) {
        state.withLock { state in
            if let saved, (policy ?? state.transcriptErrorHandlingPolicy ?? .revertTranscript) == .revertTranscript {
                state.transcript = saved
            }
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
        case .custom(let segment): .custom(segment)
        }
    }
}
