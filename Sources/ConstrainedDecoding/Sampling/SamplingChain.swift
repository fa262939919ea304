/// Picks each next token from a model's logits, among the tokens a constraint allows: the
/// sampling chain, whose stages run in the order ``SamplingSettings`` gives (biases and penalties,
/// the constraint's mask, top-k, top-p, min-p, the temperature and the draw), each only when set.
/// It reads masks through ``TokenConstraint`` (a ``GrammarMatcher``, or any other source) and
/// never drives a grammar itself: the caller advances the grammar with the token chosen.
///
/// With nothing set beyond the temperature, the choice is the model's: greedy takes the most
/// likely allowed token, and random sampling draws from the model's distribution over the
/// allowed tokens. A second set of settings, ``freeTextSettings`` (a preset's), fills in what
/// ``settings`` leaves unset, only where the constraint leaves the characters free (see
/// ``TokenConstraint/isInFreeText``): never inside an `enum`, `const`, `pattern` or `format`
/// value, a number or the JSON structure.
///
/// The logits are read, never written: the stages that change them work on a copy.
public struct SamplingChain: Sendable {
    public let settings: SamplingSettings
    /// The settings that apply in free text, where ``settings`` leaves a stage unset.
    public let freeTextSettings: SamplingSettings?
    private let dry: DRYPenalty?
    private let freeTextDry: DRYPenalty?
    private var random: SeededRandom
    /// The logits after the biases and penalties.
    private var adjusted: [Float] = []
    private var candidates = RankedCandidates()

    /// A chain over a vocabulary of `tokens` (needed by DRY, to find the tokens that hold its
    /// sequence breakers); `penalties` gives DRY's tables for a setting, when they are kept.
    public init(
        settings: SamplingSettings = SamplingSettings(temperature: 0), freeTextSettings: SamplingSettings? = nil, seed: UInt64 = 0,
        tokens: [[UInt8]] = [], penalties: ((DRYSettings) -> DRYPenalty)? = nil
    ) {
        self.settings = settings
        let free = freeTextSettings.map { settings.filled(from: $0) }
        self.freeTextSettings = free
        let make = penalties ?? { DRYPenalty(settings: $0, tokens: tokens) }
        let dry = settings.dry.flatMap { $0.multiplier != 0 ? make($0) : nil }
        self.dry = dry
        freeTextDry = free?.dry.flatMap { $0 == settings.dry ? dry : $0.multiplier != 0 ? make($0) : nil }
        random = SeededRandom(seed: seed)
    }

    /// The next token after `history` (the tokens of the context, oldest first, of which the
    /// last `responseLength` are the response's; all when `nil`): the best one `constraint`
    /// allows when greedy, else one drawn among them (`mask` is filled then). `nil` when
    /// `constraint` allows no token.
    public mutating func sample(
        logits: UnsafeBufferPointer<Float>, history: ArraySlice<Int32> = [], responseLength: Int? = nil,
        constraint: some TokenConstraint, mask: inout TokenBitset
    ) -> Int32? {
        let active = freeTextSettings != nil && constraint.isInFreeText ? freeTextSettings ?? settings : settings
        return withAdjustedLogits(logits, history: history, responseLength: responseLength, active: active) { chain, logits in
            // The model's own choice is tried first (one check): the full mask only when refused.
            if active.isGreedy, let best = Self.best(in: logits, allowed: nil), constraint.canAdvance(token: best) { return best }
            constraint.allowedTokens(into: &mask)
            return chain.choose(from: logits, allowed: mask, settings: active)
        }
    }

    /// A token chosen among `allowed` after `history`, given as a mask; `inFreeText` says
    /// whether ``freeTextSettings`` apply.
    public mutating func choose(
        logits: UnsafeBufferPointer<Float>, history: ArraySlice<Int32> = [], responseLength: Int? = nil, allowed: TokenBitset?,
        inFreeText: Bool = true
    ) -> Int32? {
        let active = inFreeText ? freeTextSettings ?? settings : settings
        return withAdjustedLogits(logits, history: history, responseLength: responseLength, active: active) { chain, logits in
            chain.choose(from: logits, allowed: allowed, settings: active)
        }
    }

    /// Runs `body` on the logits after the stages of `active` (``settings`` or
    /// ``freeTextSettings``) that change them, on a copy when one does; the penalties count the
    /// last `responseLength` tokens of `history` alone when `active` leaves the prompt out.
    private mutating func withAdjustedLogits(
        _ logits: UnsafeBufferPointer<Float>, history full: ArraySlice<Int32>, responseLength: Int?, active: SamplingSettings,
        _ body: (inout SamplingChain, UnsafeBufferPointer<Float>) -> Int32?
    ) -> Int32? {
        guard active.adjustsLogits else { return body(&self, logits) }
        let history = active.penalizesPrompt == false ? full.suffix(max(0, responseLength ?? full.count)) : full
        let dry = active == settings ? self.dry : freeTextDry
        var buffer = adjusted
        adjusted = []
        if buffer.count != logits.count { buffer = [Float](repeating: 0, count: logits.count) }
        let result = buffer.withUnsafeMutableBufferPointer { copy -> Int32? in
            _ = copy.initialize(fromContentsOf: logits)
            if let bias = active.logitBias { LogitBias(bias).apply(to: copy) }
            let window = history.suffix(max(0, active.penaltyWindow ?? SamplingSettings.defaultPenaltyWindow))
            if let penalty = active.repetitionPenalty { RepetitionPenalty(penalty).apply(to: copy, window: window) }
            FrequencyPresencePenalty(frequency: active.frequencyPenalty ?? 0, presence: active.presencePenalty ?? 0).apply(to: copy, window: window)
            dry?.apply(to: copy, history: history)
            return body(&self, UnsafeBufferPointer(copy))
        }
        adjusted = buffer
        return result
    }

    /// A token among `allowed` (all when `nil`) by `settings`' truncation stages and temperature.
    private mutating func choose(from logits: UnsafeBufferPointer<Float>, allowed: TokenBitset?, settings: SamplingSettings) -> Int32? {
        if settings.isGreedy { return Self.best(in: logits, allowed: allowed) }
        guard let best = Self.best(in: logits, allowed: allowed) else { return nil }
        let temperature = settings.temperature ?? 1
        // Tokens 40 nats (at the temperature, when above 1) below the best weigh less than e^-40
        // of it, whatever the stages keep: they are left out. The stages sort only the most
        // likely candidates, as far as they read.
        let top = logits[Int(best)]
        candidates.gather(logits, allowed: allowed, floor: top - Float(40 * max(1, temperature)), top: top)
        var kept = candidates.count
        if let k = settings.topK { kept = TopK(k).kept(of: &candidates, within: kept) }
        if let p = settings.topP { kept = TopP(p).kept(of: &candidates, within: kept) }
        if let p = settings.minP { kept = MinP(p).kept(of: &candidates, within: kept) }
        return Temperature(temperature).draw(from: &candidates, within: kept, unit: random.nextUnit())
    }

    /// The allowed token with the highest finite logit (the lowest id among equals).
    static func best(in logits: UnsafeBufferPointer<Float>, allowed: TokenBitset?) -> Int32? {
        var best = -1
        var bestLogit = -Float.infinity
        if let allowed {
            allowed.forEachID { id in
                guard Int(id) < logits.count, logits[Int(id)] > bestLogit, logits[Int(id)].isFinite else { return }
                best = Int(id)
                bestLogit = logits[Int(id)]
            }
        } else {
            for id in logits.indices where logits[id] > bestLogit && logits[id].isFinite {
                best = id
                bestLogit = logits[id]
            }
        }
        return best < 0 ? nil : Int32(best)
    }
}
