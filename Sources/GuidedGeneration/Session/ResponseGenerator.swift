import ConstrainedDecoding
import Foundation
import PartialJSON

/// The decode loop of one model turn: the conversation is read into the model's context, then
/// tokens are chosen one by one, under the schema's grammar when there is one, with the text the
/// grammar forces written without asking the model; each change of the answer is reported as a
/// snapshot. When the model has tools, the grammar is that of a ``ToolTurnFormat`` turn: the
/// answer, or tool calls that match the tools' schemas.
struct ResponseGenerator {
    let runtime: ModelRuntime
    let cache: ContextCache
    /// The conversation, ending with the opening of the assistant's turn.
    let prompt: [Int32]
    /// The grammar of the turn, or `nil` for free text.
    let grammar: CompiledGrammar?
    /// Whether the turn is a ``ToolTurnFormat`` object, holding the answer or tool calls.
    let isToolTurn: Bool
    /// Whether the answer is text (in a tool turn, a JSON string): the budget cuts it short
    /// rather than failing it.
    let answerIsText: Bool
    let options: GenerationOptions
    let cancellation: CancellationFlag

    /// What a turn produced.
    struct Output {
        /// The answer, or the array of tool calls.
        var content: GeneratedContent
        var text: String
        var statistics: GenerationStatistics
        /// Whether the model called tools instead of answering.
        var isToolCalls: Bool
    }

    /// Runs the loop, calling `onSnapshot` with the answer after each token that changed it (the
    /// last call has the complete answer; tool calls are not reported).
    func run(onSnapshot: @escaping (GeneratedContent) -> Void) throws -> Output {
        let contextSize = runtime.contextSize
        let budget = options.maximumResponseTokens.map { max(0, $0) }
        let needed = prompt.count + max(1, budget ?? 1)
        guard needed <= contextSize else {
            throw LanguageModelSession.GenerationError.exceededContextWindowSize(
                .init(
                    debugDescription: "The conversation takes \(prompt.count) tokens"
                        + (budget.map { " and the response may take \($0)" } ?? "")
                        + "; the context holds \(contextSize)."))
        }
        cache.lock.lock()
        defer { cache.lock.unlock() }
        let started = Date()
        let (logits, reused) = try cache.load(prompt, runtime: runtime)
        var statistics = GenerationStatistics()
        statistics.promptTokens = prompt.count
        statistics.cachedPromptTokens = reused
        statistics.promptSeconds = Date().timeIntervalSince(started)
        let turn = Turn(generator: self, budget: budget, logits: logits, statistics: statistics, started: started, onSnapshot: onSnapshot)
        return try turn.run()
    }

    /// The tokens of the text the grammar forces from here, when there is any and the matcher
    /// accepts them (they are read into the matcher).
    fileprivate func forcedTokens(_ matcher: GrammarMatcher) -> [Int32]? {
        var bytes = matcher.forcedBytes()
        // Only whole characters are tokenized; a character split by a choice is left to the model.
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        guard !bytes.isEmpty else { return nil }
        let tokens = runtime.model.tokenize(String(decoding: bytes, as: UTF8.self), parsingSpecialTokens: false)
        for (index, token) in tokens.enumerated() where !matcher.advance(token: token) {
            matcher.rollback(index)
            return nil
        }
        return tokens.isEmpty ? nil : tokens
    }

    /// How much less likely a token written lately becomes (its logit divided by this when
    /// positive, multiplied when negative).
    static let repetitionPenalty: Float = 1.2
    /// How many of the last response tokens count as written lately.
    static let repetitionWindow = 64

    fileprivate func makeSampler() -> Sampler {
        let temperature = options.temperature ?? 0.7
        switch options.sampling?.kind {
        case .greedy: return Sampler(mode: .greedy)
        case .top(let k, let seed): return Sampler(mode: .topK(k), temperature: temperature, seed: seed ?? .random(in: .min ... .max))
        case .probabilityThreshold(let p, let seed):
            return Sampler(mode: .topP(p), temperature: temperature, seed: seed ?? .random(in: .min ... .max))
        case nil: return Sampler(mode: .topP(0.9), temperature: temperature, seed: .random(in: .min ... .max))
        }
    }
}

/// One turn as it is written: the model's context, the sampler and the text so far.
private final class Turn {
    private let generator: ResponseGenerator
    private let runtime: ModelRuntime
    private let budget: Int?
    private var logits: UnsafeBufferPointer<Float>
    private var statistics: GenerationStatistics
    private var sampler: Sampler
    private var text: TextAccumulator
    private var last: GeneratedContent?
    private var mask: TokenBitset
    private let started: Date
    private let onSnapshot: (GeneratedContent) -> Void

    init(
        generator: ResponseGenerator, budget: Int?, logits: UnsafeBufferPointer<Float>, statistics: GenerationStatistics, started: Date,
        onSnapshot: @escaping (GeneratedContent) -> Void
    ) {
        self.generator = generator
        runtime = generator.runtime
        self.budget = budget
        self.logits = logits
        self.statistics = statistics
        self.started = started
        self.onSnapshot = onSnapshot
        sampler = generator.makeSampler()
        text = TextAccumulator(json: generator.grammar != nil)
        mask = TokenBitset(capacity: generator.runtime.vocabulary.count)
    }

    func run() throws -> ResponseGenerator.Output {
        let writing = Date()
        do {
            if let grammar = generator.grammar {
                try writeConstrained(GrammarMatcher(grammar: grammar, vocabulary: runtime.vocabulary))
            } else {
                try writeText()
            }
        } catch let stop as Stop {
            // A text answer is cut at the budget, as free text is.
            guard case .budget = stop, generator.isToolTurn, generator.answerIsText, let snapshot = try text.snapshot(),
                case .string(let cut)? = ToolTurnFormat.parts(of: snapshot).answer?.kind
            else {
                throw stop.error(text: text, statistics: statistics, contextSize: runtime.contextSize)
            }
            return finish(content: GeneratedContent(kind: .string(cut)), text: cut, isToolCalls: false, writing: writing)
        }
        var content = try text.finishedContent()
        var answerText = text.string
        var isToolCalls = false
        if generator.isToolTurn {
            let (calls, answer) = ToolTurnFormat.parts(of: content)
            if let calls {
                content = calls
                isToolCalls = true
            } else if let answer {
                content = answer
                if case .string(let string) = answer.kind { answerText = string }
            }
        }
        return finish(content: content, text: answerText, isToolCalls: isToolCalls, writing: writing)
    }

    /// The output, after the last snapshot of the answer.
    private func finish(content: GeneratedContent, text: String, isToolCalls: Bool, writing: Date) -> ResponseGenerator.Output {
        statistics.responseSeconds = Date().timeIntervalSince(writing)
        if !isToolCalls {
            if content != last { onSnapshot(content) }
            if statistics.firstSnapshotSeconds == nil { statistics.firstSnapshotSeconds = Date().timeIntervalSince(started) }
        }
        return ResponseGenerator.Output(content: content, text: text, statistics: statistics, isToolCalls: isToolCalls)
    }

    /// Writes text until the model ends its turn, the budget is spent or the context is full (the
    /// last two cut the text short, as the statistics say).
    private func writeText() throws {
        let allowed = runtime.textTokens
        while true {
            if statistics.responseTokens >= (budget ?? .max) || generator.cache.tokens.count >= runtime.contextSize {
                statistics.isTruncated = true
                return
            }
            penalizeRepetition()
            guard let token = sampler.choose(logits: logits, allowed: allowed) else { return }
            if runtime.model.stopTokens.contains(token) { return }
            try write([token])
        }
    }

    /// Writes the document of a grammar until it is complete.
    private func writeConstrained(_ matcher: GrammarMatcher) throws {
        while matcher.canContinue {
            if var forced = generator.forcedTokens(matcher) {
                // Within the budget: what goes beyond it is read back out of the matcher.
                let excess = forced.count - ((budget ?? .max) - statistics.responseTokens)
                if excess > 0 {
                    matcher.rollback(excess)
                    forced.removeLast(excess)
                }
                if !forced.isEmpty { try write(forced) }
                statistics.forcedTokens += forced.count
                if excess > 0 { throw Stop.budget }
                continue
            }
            if let budget, statistics.responseTokens >= budget { throw Stop.budget }
            penalizeRepetition()
            guard let token = sampler.sample(logits: logits, matcher: matcher, mask: &mask) else { throw Stop.noToken }
            if token == runtime.vocabulary.endOfText { break }
            matcher.advance(token: token)
            try write([token])
        }
    }

    /// Evaluates response tokens, within the budget and the context.
    private func evaluate(_ tokens: [Int32]) throws {
        if generator.cancellation.isCancelled { throw CancellationError() }
        if let budget, statistics.responseTokens + tokens.count > budget { throw Stop.budget }
        guard generator.cache.tokens.count + tokens.count <= runtime.contextSize else { throw Stop.context }
        logits = try generator.cache.append(tokens)
        statistics.responseTokens += tokens.count
    }

    /// Evaluates response tokens and adds them to the text.
    private func write(_ tokens: [Int32]) throws {
        try evaluate(tokens)
        for token in tokens { try text.append(runtime.model.tokenBytes[Int(token)]) }
        try report()
    }

    /// Reports the answer when a token changed it.
    private func report() throws {
        guard var content = try text.snapshot() else { return }
        if generator.isToolTurn {
            guard let answer = ToolTurnFormat.parts(of: content).answer else { return }
            content = answer
        }
        guard content != last else { return }
        last = content
        if statistics.firstSnapshotSeconds == nil { statistics.firstSnapshotSeconds = Date().timeIntervalSince(started) }
        onSnapshot(content)
    }

    /// Makes the tokens written lately less likely, as llama.cpp's repetition penalty does: small
    /// models otherwise fall into loops (the same array element again and again).
    private func penalizeRepetition() {
        let penalty = ResponseGenerator.repetitionPenalty
        let mutable = UnsafeMutableBufferPointer(mutating: logits)
        for token in Set(generator.cache.tokens.suffix(statistics.responseTokens).suffix(ResponseGenerator.repetitionWindow)) {
            let logit = mutable[Int(token)]
            mutable[Int(token)] = logit > 0 ? logit / penalty : logit * penalty
        }
    }

    /// Why the loop stopped before the turn was complete.
    private enum Stop: Error {
        case budget, context, noToken

        func error(text: TextAccumulator, statistics: GenerationStatistics, contextSize: Int) -> LanguageModelSession.GenerationError {
            let tail = String(text.string.suffix(80))
            switch self {
            case .context:
                return .exceededContextWindowSize(
                    .init(
                        debugDescription: "The context of \(contextSize) tokens filled up after \(statistics.responseTokens) response tokens "
                            + "(the conversation took \(statistics.promptTokens)); the response ends with: \(tail)"))
            case .budget:
                return .decodingFailure(
                    .init(
                        debugDescription: "The response was not complete after the maximum of \(statistics.responseTokens) tokens; "
                            + "it stopped \(text.position) with: \(tail)"))
            case .noToken:
                return .decodingFailure(
                    .init(debugDescription: "No token of the vocabulary can continue the response \(text.position): \(tail)"))
            }
        }
    }
}
