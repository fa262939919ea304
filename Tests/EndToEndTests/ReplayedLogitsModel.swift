import Foundation
import GuidedGeneration

/// Another engine's logits along its own answer, as llama-server reports them: the prompt's
/// tokens, the answer's tokens, and at each step the log probabilities of the most likely tokens
/// before any sampling stage (`n_probs`).
struct LogitsTrace: Sendable {
    let prompt: [Int32]
    let answer: [Int32]
    /// For each step (before `answer[step]`, and after the last token when the engine reported
    /// it), token id to log probability.
    let steps: [[Int32: Float]]

    /// The steps whose answer token is not among the reported ones: a token the other engine's
    /// grammar forced, which its model ranks below every reported token.
    var unreportedSteps: [Int] {
        (0..<min(steps.count, answer.count)).filter { steps[$0][answer[$0]] == nil }
    }
}

/// A backend whose logits are a ``LogitsTrace``'s, over a real model's vocabulary, tokenizer
/// and chat template: this engine's decoder (grammar, mask, sampling chain) then runs on exactly
/// the numbers the other engine chose from, so that any difference in the answer is the
/// decoder's, not the arithmetic's. Tokens outside the trace's top list are minus infinity, but
/// for the other engine's own choice where it was below that list (``LogitsTrace/unreportedSteps``):
/// it is put just below the list, so that the decoder writes it exactly when its grammar, as
/// the other engine's, refuses every token above it.
struct ReplayedLogitsBackend: LanguageModelBackend {
    let model: any LoadedLanguageModel
    let trace: LogitsTrace
    let contextSize: Int
    let recorder: ReplayRecorder

    var availability: SystemLanguageModel.Availability { .available }

    func load(progress: @Sendable (String) -> Void) throws -> any LoadedLanguageModel {
        ReplayedLogitsModel(model: model, trace: trace, recorder: recorder)
    }
}

/// The tokens a replay was asked to evaluate, in order: where the decoder left the trace, the
/// last of them is its own choice.
final class ReplayRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Int32] = []

    var tokens: [Int32] { lock.withLock { recorded } }

    func record(_ tokens: [Int32]) { lock.withLock { recorded = tokens } }
}

/// The loaded side of ``ReplayedLogitsBackend``.
final class ReplayedLogitsModel: LoadedLanguageModel {
    let model: any LoadedLanguageModel
    let trace: LogitsTrace
    let recorder: ReplayRecorder

    init(model: any LoadedLanguageModel, trace: LogitsTrace, recorder: ReplayRecorder) {
        self.model = model
        self.trace = trace
        self.recorder = recorder
    }

    var tokenBytes: [[UInt8]] { model.tokenBytes }
    var specialTokens: Set<Int32> { model.specialTokens }
    var stopTokens: Set<Int32> { model.stopTokens }

    func tokenize(_ text: String, parsingSpecialTokens: Bool) -> [Int32] {
        model.tokenize(text, parsingSpecialTokens: parsingSpecialTokens)
    }

    func conversationText(_ messages: [ConversationMessage]) throws -> String {
        try model.conversationText(messages)
    }

    func makeContext(size: Int) throws -> any LanguageModelContext {
        ReplayedLogitsContext(trace: trace, vocabularySize: model.tokenBytes.count, recorder: recorder)
    }
}

/// One sequence of a replay: it follows the trace's path and refuses any other.
final class ReplayedLogitsContext: LanguageModelContext {
    /// The decoder evaluated a token the trace's engine did not write.
    struct Departure: Error, CustomStringConvertible {
        let step: Int
        var description: String { "the decoder left the other engine's answer at step \(step)" }
    }

    /// The decoder asked for logits past the last step the trace reports.
    struct Exhausted: Error {}

    private let trace: LogitsTrace
    private let recorder: ReplayRecorder
    private var tokens: [Int32] = []
    private let logits: UnsafeMutableBufferPointer<Float>

    init(trace: LogitsTrace, vocabularySize: Int, recorder: ReplayRecorder) {
        self.trace = trace
        self.recorder = recorder
        logits = .allocate(capacity: vocabularySize)
    }

    deinit { logits.deallocate() }

    var count: Int { tokens.count }

    func truncate(to count: Int) { tokens.removeLast(max(0, tokens.count - count)) }

    func evaluate(_ new: [Int32]) throws -> UnsafeBufferPointer<Float> {
        tokens += new
        recorder.record(tokens)
        guard tokens.count >= trace.prompt.count, (trace.prompt + trace.answer).starts(with: tokens) else {
            let written = tokens.dropFirst(trace.prompt.count)
            throw Departure(step: zip(written, trace.answer).prefix { $0 == $1 }.count)
        }
        let step = tokens.count - trace.prompt.count
        guard step < trace.steps.count else { throw Exhausted() }
        logits.update(repeating: -.infinity)
        for (token, logProbability) in trace.steps[step] { logits[Int(token)] = logProbability }
        if step < trace.answer.count, trace.steps[step][trace.answer[step]] == nil {
            logits[Int(trace.answer[step])] = (trace.steps[step].values.min() ?? 0) - 1
        }
        return UnsafeBufferPointer(logits)
    }

    /// Records the unread tokens after those read: the answer as written, whole.
    func pause(unread: [Int32]) {
        recorder.record(tokens + unread)
    }
}
