import ConstrainedDecoding
import Foundation
import PartialJSON

/// The decode loop of one response: the conversation is read into the model's context, then
/// tokens are chosen one by one, under the schema's grammar when there is one, with the text the
/// grammar forces written without asking the model; each change is reported as a snapshot.
struct ResponseGenerator {
    let runtime: ModelRuntime
    let cache: ContextCache
    /// The conversation, ending with the opening of the assistant's turn.
    let prompt: [Int32]
    /// The grammar of the response, or `nil` for free text.
    let grammar: CompiledGrammar?
    let options: GenerationOptions
    let cancellation: CancellationFlag

    /// What a generation produced.
    struct Output {
        var content: GeneratedContent
        var text: String
        var statistics: GenerationStatistics
    }

    /// Runs the loop, calling `onSnapshot` with the content after each token that changed it
    /// (the last call has the complete content).
    func run(onSnapshot: (GeneratedContent) -> Void) throws -> Output {
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
        var statistics = GenerationStatistics()
        statistics.promptTokens = prompt.count
        let started = Date()
        var (logits, reused) = try cache.load(prompt, runtime: runtime)
        statistics.cachedPromptTokens = reused
        statistics.promptSeconds = Date().timeIntervalSince(started)
        let writing = Date()
        var sampler = makeSampler()
        var text = TextAccumulator(json: grammar != nil)
        let matcher = grammar.map { GrammarMatcher(grammar: $0, vocabulary: runtime.vocabulary) }
        var mask = TokenBitset(capacity: runtime.vocabulary.count)
        var last: GeneratedContent?
        func report() throws {
            guard let content = try text.snapshot(), content != last else { return }
            last = content
            if statistics.firstSnapshotSeconds == nil { statistics.firstSnapshotSeconds = Date().timeIntervalSince(started) }
            onSnapshot(content)
        }
        /// Evaluates response tokens, within the budget and the context.
        func write(_ tokens: [Int32]) throws {
            if cancellation.isCancelled { throw CancellationError() }
            if let budget, statistics.responseTokens + tokens.count > budget { throw Stop.budget }
            guard cache.tokens.count + tokens.count <= contextSize else { throw Stop.context }
            logits = try cache.append(tokens)
            statistics.responseTokens += tokens.count
            for token in tokens { try text.append(runtime.model.tokenBytes[Int(token)]) }
            try report()
        }
        do {
            if let matcher {
                while matcher.canContinue {
                    if var forced = forcedTokens(matcher) {
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
                    penalizeRepetition(logits, written: cache.tokens.suffix(statistics.responseTokens))
                    guard let token = sampler.sample(logits: logits, matcher: matcher, mask: &mask) else {
                        throw Stop.noToken
                    }
                    if token == runtime.vocabulary.endOfText { break }
                    matcher.advance(token: token)
                    try write([token])
                }
            } else {
                let allowed = runtime.textTokens
                while statistics.responseTokens < (budget ?? .max) {
                    penalizeRepetition(logits, written: cache.tokens.suffix(statistics.responseTokens))
                    guard let token = sampler.choose(logits: logits, allowed: allowed) else { break }
                    if runtime.model.stopTokens.contains(token) { break }
                    try write([token])
                }
            }
        } catch let stop as Stop {
            throw stop.error(text: text, statistics: statistics, contextSize: contextSize, isText: grammar == nil)
        }
        let content = try text.finishedContent()
        statistics.responseSeconds = Date().timeIntervalSince(writing)
        if content != last { onSnapshot(content) }
        if statistics.firstSnapshotSeconds == nil { statistics.firstSnapshotSeconds = Date().timeIntervalSince(started) }
        return Output(content: content, text: text.string, statistics: statistics)
    }

    /// The tokens of the text the grammar forces from here, when there is any and the matcher
    /// accepts them (they are read into the matcher).
    private func forcedTokens(_ matcher: GrammarMatcher) -> [Int32]? {
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

    /// Makes the tokens written lately less likely, as llama.cpp's repetition penalty does: small
    /// models otherwise fall into loops (the same array element again and again).
    private func penalizeRepetition(_ logits: UnsafeBufferPointer<Float>, written: ArraySlice<Int32>) {
        let penalty = Self.repetitionPenalty
        let mutable = UnsafeMutableBufferPointer(mutating: logits)
        for token in Set(written.suffix(Self.repetitionWindow)) {
            let logit = mutable[Int(token)]
            mutable[Int(token)] = logit > 0 ? logit / penalty : logit * penalty
        }
    }

    private func makeSampler() -> Sampler {
        let temperature = options.temperature ?? 0.7
        switch options.sampling?.kind {
        case .greedy: return Sampler(mode: .greedy)
        case .top(let k, let seed): return Sampler(mode: .topK(k), temperature: temperature, seed: seed ?? .random(in: .min ... .max))
        case .probabilityThreshold(let p, let seed):
            return Sampler(mode: .topP(p), temperature: temperature, seed: seed ?? .random(in: .min ... .max))
        case nil: return Sampler(mode: .topP(0.9), temperature: temperature, seed: .random(in: .min ... .max))
        }
    }

    /// Why the loop stopped before the response was complete.
    private enum Stop: Error {
        case budget, context, noToken

        func error(text: TextAccumulator, statistics: GenerationStatistics, contextSize: Int, isText: Bool) -> LanguageModelSession.GenerationError {
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
