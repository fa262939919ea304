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
    /// The request the turn answers, whose subject words the answer's strings lean towards.
    let request: String?
    let cancellation: CancellationFlag
    /// Called after each token with the bytes of the response that no later step can take back
    /// (a text answer or a value; never in a tool turn), for those who stream the raw text.
    var onSettledText: (@Sendable (ArraySlice<UInt8>) -> Void)? = nil

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

    /// In random sampling, the share of the best allowed token's probability below which a token
    /// is left out (min-p, as llama.cpp's default sampler chain applies it beside top-p), unless
    /// the model recommends its own. On the answer-quality benchmark, seeded answers passing every
    /// check went from 71% to 82% with 0.1 (82% with 0.2): the tail of a small model's
    /// distribution is where junk words come from.
    static let minimumRelativeProbability = 0.1
    /// The temperature when neither the request nor the model says.
    static let temperature = 0.7
    /// The nucleus share when neither the request nor the model says.
    static let probabilityThreshold = 0.9

    fileprivate func makeSampler() -> Sampler {
        let model = runtime.model
        let temperature = options.temperature ?? model.recommendedTemperature ?? Self.temperature
        let minimum = model.recommendedMinimumRelativeProbability ?? Self.minimumRelativeProbability
        func random(_ mode: Sampler.Mode, seed: UInt64?) -> Sampler {
            Sampler(mode: mode, temperature: temperature, minimumRelativeProbability: minimum, seed: seed ?? .random(in: .min ... .max))
        }
        switch options.sampling?.kind {
        case .greedy: return Sampler(mode: .greedy)
        case .randomTopK(let k, let seed): return random(.topK(k), seed: seed)
        case .randomProbabilityThreshold(let p, let seed): return random(.topP(p), seed: seed)
        case nil: return random(.topP(model.recommendedProbabilityThreshold ?? Self.probabilityThreshold), seed: nil)
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
    /// The length of the text after each response token.
    private var tokenEnds: [Int] = []
    private var watch: RepetitionWatch
    private var requestWords: RequestWordPrior
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
        watch = RepetitionWatch(json: generator.grammar != nil)
        mask = TokenBitset(capacity: generator.runtime.vocabulary.count)
        requestWords = generator.runtime.requestWordPrior(for: generator.request ?? "")
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
            if case .loop(let keep)? = try write([token]) {
                // The text ends before the loop.
                try cut(keepingBytes: trimmedEnd(keep))
                try report()
                return
            }
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
                statistics.forcedTokens += forced.count
                if !forced.isEmpty, let finding = try write(forced) { try end(finding, matcher: matcher) }
                if excess > 0 { throw Stop.budget }
                continue
            }
            if let budget, statistics.responseTokens >= budget { throw Stop.budget }
            penalizeRepetition()
            guard let token = sampler.sample(logits: logits, matcher: matcher, mask: &mask) else { throw Stop.noToken }
            if token == runtime.vocabulary.endOfText { break }
            matcher.advance(token: token)
            if let finding = try write([token]) { try end(finding, matcher: matcher) }
        }
    }

    /// Ends a loop that the grammar allows to end where it began: the text goes back to the
    /// comma before a repeated element, and the array closes; or back to where a run of words
    /// came back, and the string closes. Otherwise the text stays as it is.
    private func end(_ finding: RepetitionWatch.Finding, matcher: GrammarMatcher) throws {
        let (keep, ending) =
            switch finding {
            case .repeatedElement(let keep): (keep, "]")
            case .loop(let keep): (trimmedEnd(keep), "\"")
            }
        // The tokens wholly kept; the bytes after the last of them are written again, with the ending.
        var kept = tokenEnds.firstIndex { $0 > keep } ?? tokenEnds.count
        while kept > 0, String(validating: text.bytes[tokenEnds[kept - 1]..<keep], as: UTF8.self) == nil { kept -= 1 }
        let start = kept > 0 ? tokenEnds[kept - 1] : 0
        let removed = tokenEnds.count - kept
        let tokens = runtime.model.tokenize(String(decoding: text.bytes[start..<keep], as: UTF8.self) + ending, parsingSpecialTokens: false)
        matcher.rollback(removed)
        var accepted = 0
        while accepted < tokens.count, matcher.advance(token: tokens[accepted]) { accepted += 1 }
        guard accepted == tokens.count else {
            matcher.rollback(accepted)
            for token in generator.cache.tokens.suffix(removed) { matcher.advance(token: token) }
            try report()
            return
        }
        try cut(keepingBytes: start)
        try write(tokens)
    }

    /// Drops the response after its first `count` bytes; the tokens wholly within them stay in
    /// the context.
    private func cut(keepingBytes count: Int) throws {
        let removed = tokenEnds.count - (tokenEnds.firstIndex { $0 > count } ?? tokenEnds.count)
        generator.cache.truncate(to: generator.cache.tokens.count - removed)
        tokenEnds.removeLast(removed)
        statistics.responseTokens -= removed
        try text.truncate(to: count)
        watch = RepetitionWatch(json: generator.grammar != nil)
        _ = watch.read(text.bytes)
        // A word written only in what was dropped is unwritten again.
        requestWords = runtime.requestWordPrior(for: generator.request ?? "")
    }

    /// Where the text before `offset` ends without the spaces and separators before it.
    private func trimmedEnd(_ offset: Int) -> Int {
        var end = offset
        while end > 0, " \t\n,;:-".utf8.contains(text.bytes[end - 1]) { end -= 1 }
        return end
    }

    /// Evaluates response tokens, within the budget and the context.
    private func evaluate(_ tokens: [Int32]) throws {
        if generator.cancellation.isCancelled { throw CancellationError() }
        if let budget, statistics.responseTokens + tokens.count > budget { throw Stop.budget }
        guard generator.cache.tokens.count + tokens.count <= runtime.contextSize else { throw Stop.context }
        logits = try generator.cache.append(tokens)
        statistics.responseTokens += tokens.count
    }

    /// Evaluates response tokens and adds them to the text; returns the loop they close, if any.
    @discardableResult
    private func write(_ tokens: [Int32]) throws -> RepetitionWatch.Finding? {
        try evaluate(tokens)
        for token in tokens {
            try text.append(runtime.model.tokenBytes[Int(token)])
            tokenEnds.append(text.bytes.count)
        }
        let finding = watch.read(text.bytes)
        // A loop is reported once it is ended (or kept, where the grammar cannot end it there).
        if finding == nil { try report() }
        return finding
    }

    /// Reports the answer when a token changed it.
    private func report() throws {
        if let onSettledText = generator.onSettledText, !generator.isToolTurn { onSettledText(text.bytes[..<watch.settledCount]) }
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
        let response = generator.cache.tokens.suffix(statistics.responseTokens)
        if penalty != 1 {
            for token in Set(response.suffix(ResponseGenerator.repetitionWindow)) {
                let logit = mutable[Int(token)]
                mutable[Int(token)] = logit > 0 ? logit / penalty : logit * penalty
            }
        }
        runtime.sequencePenalty.apply(to: mutable, history: response)
        if generator.grammar != nil, let last = text.bytes.last {
            if watch.isInStringValue {
                runtime.markupPenalty.applyInString(to: mutable, after: last, wordLength: wordLength())
                requestWords.apply(to: mutable, text: text.bytes)
            } else if last == UInt8(ascii: "[") {
                // Arrays of the value fill; a recursive type's arrays nest once, not without end.
                if watch.arrayDepth == 1 {
                    runtime.markupPenalty.applyAtArrayStart(to: mutable)
                } else if watch.isInNestedArrayOfSameName {
                    runtime.markupPenalty.applyToNestedArrayStart(to: mutable)
                }
            }
        }
    }

    /// How many bytes the text ends with since its last space or quote (at most one more than a
    /// word may have).
    private func wordLength() -> Int {
        var length = 0
        for byte in text.bytes.reversed() {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\"") || length > MarkupPenalty.longestWord + 8 { break }
            length += 1
        }
        return length
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
