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
    /// Whether the text is JSON: the grammar is a schema's or a tool turn's, not a text grammar
    /// (``GenerationOptions/textGrammar``), and not a turn of the model's own tool-call format,
    /// whose calls are read when it is complete.
    var readsJSON: Bool { grammar != nil && !writesTaggedCalls && (isToolTurn || !answerIsText) }
    /// Called after each token with the bytes of the response that no later step can take back
    /// (a text answer or a value; never in a tool turn), for those who stream the raw text, and
    /// the number of response tokens written so far.
    var onSettledText: (@Sendable (ArraySlice<UInt8>, Int) -> Void)? = nil
    /// Whether the turn is written in the model's own tool-call format (``TaggedToolCalls``):
    /// the tokens of the call tags are allowed and forced text reads them as such, and a text
    /// answer is cut at the budget rather than failing.
    var writesTaggedCalls = false

    /// The vocabulary the grammar's masks are over.
    var vocabulary: Vocabulary { writesTaggedCalls ? runtime.taggedCallVocabulary : runtime.vocabulary }

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
    /// last call has the complete answer; tool calls are not reported). When ``onSettledText``
    /// streams the text, only the complete answer is reported: the reader of the text builds the
    /// snapshots.
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
        var turn: Turn?
        defer {
            // The last tokens written stay unread: nothing needs the logits after them.
            cache.pause(unread: turn?.unevaluated ?? [])
            cache.lock.unlock()
        }
        let started = Date()
        let (logits, reused) = try cache.load(prompt, runtime: runtime)
        var statistics = GenerationStatistics()
        statistics.promptTokens = prompt.count
        statistics.cachedPromptTokens = reused
        statistics.promptSeconds = Date().timeIntervalSince(started)
        let current = Turn(generator: self, budget: budget, logits: logits, statistics: statistics, started: started, onSnapshot: onSnapshot)
        turn = current
        return try current.run()
    }

    /// The tokens of the text the grammar forces from here that the model's tokenizer writes
    /// alike whatever the model writes next, when there are any (they are read into the matcher).
    fileprivate func forcedTokens(_ matcher: GrammarMatcher) -> [Int32]? {
        let tokens = matcher.fastForwardTokens(after: cache.tokens.last) { runtime.model.tokenize($0, parsingSpecialTokens: writesTaggedCalls) }
        return tokens.isEmpty ? nil : tokens
    }

    /// The temperature of random sampling when neither the request nor the model says.
    static let temperature = 0.7
    /// The nucleus share when neither the request nor the model says.
    static let probabilityThreshold = 0.9

    /// The sampling chain of the request. The sampling mode and ``GenerationOptions/temperature``
    /// come first: `.greedy` is always greedy, and the mode's top-k or top-p and the options'
    /// temperature hold over the same fields of ``GenerationOptions/samplingSettings``, which
    /// fill in only what the options leave to the engine; then the model's recommendations (a
    /// GGUF file's `general.sampling.*`), then nucleus sampling at 0.9 and temperature 0.7. The
    /// other stages are the settings', and the preset's (else the model's) in free text.
    fileprivate func makeChain() -> SamplingChain {
        SamplingChain(
            settings: Self.settings(of: options, model: runtime.model), freeTextSettings: (options.samplingPreset ?? runtime.model.samplingPreset)?.settings,
            seed: options.sampling?.seed ?? .random(in: .min ... .max), penalties: runtime.dryPenalty)
    }

    /// The settings of the chain for `options` on `model`, by the precedence of ``makeChain()``.
    static func settings(of options: GenerationOptions, model: some LoadedLanguageModel) -> SamplingSettings {
        var settings = options.samplingSettings ?? SamplingSettings()
        let temperature = options.temperature ?? settings.temperature ?? model.recommendedTemperature ?? Self.temperature
        switch options.sampling?.kind {
        case .greedy:
            settings.temperature = 0
        case .randomTopK(let k, _):
            settings.temperature = temperature
            settings.topK = k
        case .randomProbabilityThreshold(let p, _):
            settings.temperature = temperature
            settings.topP = p
        case nil:
            settings.temperature = temperature
            settings.topP = settings.topP ?? model.recommendedProbabilityThreshold ?? Self.probabilityThreshold
            settings.minP = settings.minP ?? model.recommendedMinimumRelativeProbability
        }
        return settings
    }
}

extension GenerationOptions.SamplingMode {
    /// The seed of random sampling, when one was given.
    fileprivate var seed: UInt64? {
        switch kind {
        case .greedy: nil
        case .randomTopK(_, let seed), .randomProbabilityThreshold(_, let seed): seed
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
    private var chain: SamplingChain
    private var text: TextAccumulator
    private var last: GeneratedContent?
    private var mask: TokenBitset
    /// Watches a structured answer for a loop, to report it in seconds rather than at the end
    /// of the budget or the context.
    private var repetitionWatch = RepetitionWatch()
    /// The tokens written last, reported but not yet read into the context: they are read when
    /// the next token needs their logits. Those the turn ends with stay unread: the next request
    /// that continues the conversation reads them with its prompt (``ContextCache/pause(unread:)``).
    private(set) var unevaluated: [Int32] = []
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
        chain = generator.makeChain()
        text = TextAccumulator(json: generator.readsJSON)
        mask = TokenBitset(capacity: generator.runtime.vocabulary.count)
    }

    func run() throws -> ResponseGenerator.Output {
        let writing = Date()
        do {
            if let grammar = generator.grammar {
                try writeConstrained(GrammarMatcher(grammar: grammar, vocabulary: generator.vocabulary))
            } else {
                try writeText()
            }
        } catch let stop as Stop {
            // A text answer is cut at the budget, as free text is.
            if case .budget = stop, generator.writesTaggedCalls, generator.answerIsText, !text.string.hasPrefix(TaggedToolCalls.opening) {
                let cut = text.string
                return finish(content: GeneratedContent(kind: .string(cut)), text: cut, isToolCalls: false, writing: writing)
            }
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
    /// last two cut the text short, as the statistics say). A preset does not act on text
    /// answers: it is for JSON values, and a story written under it runs on past its end.
    private func writeText() throws {
        let allowed = runtime.textTokens
        while true {
            if statistics.responseTokens >= (budget ?? .max) || generator.cache.tokens.count + unevaluated.count >= runtime.contextSize {
                statistics.isTruncated = true
                return
            }
            try evaluateWritten()
            guard let token = chain.choose(
                logits: logits, history: generator.cache.tokens[...], responseLength: statistics.responseTokens, allowed: allowed,
                inFreeText: false) else { return }
            if runtime.model.stopTokens.contains(token) { return }
            try write([token])
        }
    }

    /// Writes the document of a grammar until it is complete.
    private func writeConstrained(_ matcher: GrammarMatcher) throws {
        let fastForwards = generator.options.fastForwardsForcedText ?? true
        while matcher.canContinue {
            try evaluateWritten()
            if fastForwards, var forced = generator.forcedTokens(matcher) {
                // Within the budget: what goes beyond it is read back out of the matcher.
                let excess = forced.count - ((budget ?? .max) - statistics.responseTokens)
                if excess > 0 {
                    matcher.rollback(excess)
                    forced.removeLast(excess)
                }
                statistics.forcedTokens += forced.count
                if !forced.isEmpty { try write(forced) }
                if excess > 0 { throw Stop.budget }
                continue
            }
            if let budget, statistics.responseTokens >= budget { throw Stop.budget }
            guard let token = chain.sample(
                logits: logits, history: generator.cache.tokens[...], responseLength: statistics.responseTokens, constraint: matcher, mask: &mask
            ) else {
                throw Stop.noToken
            }
            if generator.vocabulary.isEnd(token) { break }
            matcher.advance(token: token)
            try write([token])
        }
    }

    /// Reads the tokens written last into the context, for the logits that follow them.
    private func evaluateWritten() throws {
        guard !unevaluated.isEmpty else { return }
        if generator.cancellation.isCancelled { throw CancellationError() }
        logits = try generator.cache.append(unevaluated)
        unevaluated.removeAll()
    }

    /// Adds response tokens to the text and reports the answer, within the budget and the
    /// context; they are read into the context after (``evaluateWritten()``), each write's
    /// tokens together as one batch, as before they were reported, so that a streamed answer
    /// reaches its reader a forward pass sooner.
    private func write(_ tokens: [Int32]) throws {
        try evaluateWritten()
        if generator.cancellation.isCancelled { throw CancellationError() }
        if let budget, statistics.responseTokens + tokens.count > budget { throw Stop.budget }
        guard generator.cache.tokens.count + tokens.count <= runtime.contextSize else { throw Stop.context }
        statistics.responseTokens += tokens.count
        unevaluated = tokens
        for token in tokens { try text.append(runtime.model.tokenBytes[Int(token)]) }
        try report()
        guard generator.readsJSON else { return }
        for token in tokens {
            if let loop = repetitionWatch.append(token) {
                throw Stop.repetition(unit: String(decoding: loop.unit.flatMap { runtime.model.tokenBytes[Int($0)] }, as: UTF8.self), times: loop.span / loop.unit.count)
            }
        }
    }

    /// Reports the answer when a token changed it: as settled text alone when the text is
    /// streamed (the reader builds its own snapshots from it), else as a snapshot.
    private func report() throws {
        if let onSettledText = generator.onSettledText, !generator.isToolTurn {
            onSettledText(text.bytes[...], statistics.responseTokens)
            if statistics.firstSnapshotSeconds == nil, !text.bytes.isEmpty { statistics.firstSnapshotSeconds = Date().timeIntervalSince(started) }
            return
        }
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

    /// Why the loop stopped before the turn was complete.
    private enum Stop: Error {
        case budget, context, noToken
        /// The answer repeats a unit of text back to back, `times` times so far.
        case repetition(unit: String, times: Int)

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
            case .repetition(let unit, let times):
                return .decodingFailure(
                    .init(
                        debugDescription: "The response was repeating itself \(text.position): it wrote \(JSONValue.string(unit).jsonString) \(times) times in a row, "
                            + "and was stopped after \(statistics.responseTokens) tokens"))
            case .noToken:
                return .decodingFailure(
                    .init(debugDescription: "No token of the vocabulary can continue the response \(text.position): \(tail)"))
            }
        }

    }
}
