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
    let model: SystemLanguageModel
    let cache = ContextCache()
    private let state: Mutex<State>

    private struct State {
        var transcript: Transcript
        var isResponding = false
        var statistics: GenerationStatistics?
    }

    /// Creates a session on `model` with instructions.
    public convenience init(model: SystemLanguageModel = .default, instructions: Instructions? = nil) {
        self.init(model: model, transcript: Transcript(entries: Self.instructionsEntries(instructions)))
    }

    /// Creates a session on `model` with instructions given as text.
    @_disfavoredOverload
    public convenience init(model: SystemLanguageModel = .default, instructions: String? = nil) {
        self.init(model: model, instructions: instructions.map { Instructions($0) })
    }

    /// Creates a session on `model` with instructions written with a builder.
    public convenience init(model: SystemLanguageModel = .default, @InstructionsBuilder instructions: () throws -> Instructions) rethrows {
        self.init(model: model, instructions: try instructions())
    }

    /// Creates a session on `model` that continues a transcript.
    public init(model: SystemLanguageModel = .default, transcript: Transcript) {
        self.model = model
        state = Mutex(State(transcript: transcript))
    }

    private static func instructionsEntries(_ instructions: Instructions?) -> [Transcript.Entry] {
        guard let instructions else { return [] }
        return [.instructions(Transcript.Instructions(segments: instructions.transcriptSegments, toolDefinitions: []))]
    }

    /// Everything said in the session so far.
    public var transcript: Transcript { state.withLock { $0.transcript } }

    /// Whether the session is answering a request.
    public var isResponding: Bool { state.withLock { $0.isResponding } }

    /// Figures of the last response: tokens read, written and forced, and timings.
    public var statistics: GenerationStatistics? { state.withLock { $0.statistics } }

    /// Loads the model and computes the instructions (and `promptPrefix`, when given) ahead of
    /// the first request, in the background, so that the first response starts sooner.
    public func prewarm(promptPrefix: Prompt? = nil) {
        let transcript = self.transcript
        Thread.detachNewThread { [self] in
            guard let runtime = try? model.runtime() else { return }
            var messages = ConversationRenderer.messages(of: transcript)
            let prefix = promptPrefix?.description ?? ""
            messages.append(ConversationMessage(role: .user, content: prefix))
            // The conversation up to the end of the prefix: what every prompt starting with it shares.
            let text = runtime.model.conversationText(messages)
            let end = prefix.isEmpty ? text.range(of: "\n", options: .backwards).map(\.lowerBound) : text.range(of: prefix, options: .backwards)?.upperBound
            let shared = end.map { String(text[..<$0]) } ?? text
            cache.lock.lock()
            defer { cache.lock.unlock() }
            _ = try? cache.load(runtime.model.tokenize(shared, parsingSpecialTokens: true), runtime: runtime)
        }
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
    func endResponding(appending entries: [Transcript.Entry], statistics: GenerationStatistics?) {
        state.withLock { state in
            state.transcript.entries += entries
            state.isResponding = false
            if let statistics { state.statistics = statistics }
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
        }
    }
}
