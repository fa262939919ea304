import Foundation

/// Picks the next token from a model's logits, among the tokens a grammar allows: greedily, or at
/// random from the top k or the top-p nucleus, at a temperature, with a seed, leaving out the
/// tokens far less likely than the best (min-p, as in llama.cpp's default chain).
///
/// The model's own choice is tried against the grammar first (one check, microseconds); the full
/// mask of allowed tokens is built only when that choice is refused.
public struct Sampler: Sendable {
    /// How tokens are chosen.
    public enum Mode: Sendable, Equatable {
        /// Always the most likely token.
        case greedy
        /// At random among the `k` most likely.
        case topK(Int)
        /// At random among the most likely tokens whose probabilities add up to `p`.
        case topP(Double)
    }

    public var mode: Mode
    /// Divides the logits before the softmax; at or below zero the choice is greedy.
    public var temperature: Double
    /// In random modes, a token whose probability (before the temperature) is below this share
    /// of the best allowed token's is never chosen (min-p); 0 keeps every token.
    public var minimumRelativeProbability: Double
    private var random: SeededRandom

    public init(mode: Mode = .greedy, temperature: Double = 1, minimumRelativeProbability: Double = 0, seed: UInt64 = 0) {
        self.mode = mode
        self.temperature = temperature
        self.minimumRelativeProbability = minimumRelativeProbability
        random = SeededRandom(seed: seed)
    }

    /// The next token: the model's choice when the grammar allows it, else a choice among the
    /// tokens the grammar allows (`mask` is filled then). `nil` when the grammar allows no token.
    public mutating func sample(logits: UnsafeBufferPointer<Float>, matcher: GrammarMatcher, mask: inout TokenBitset) -> Int32? {
        if let first = choose(logits: logits, allowed: nil), matcher.canAdvance(token: first) { return first }
        matcher.allowedTokens(into: &mask)
        return choose(logits: logits, allowed: mask)
    }

    /// A token chosen among `allowed` (all tokens when `nil`).
    public mutating func choose(logits: UnsafeBufferPointer<Float>, allowed: TokenBitset?) -> Int32? {
        let isAllowed = { (id: Int) -> Bool in allowed?.contains(Int32(id)) ?? true }
        if mode == .greedy || temperature <= 0 {
            var best: Int?
            for id in logits.indices where isAllowed(id) && logits[id].isFinite {
                if best.map({ logits[id] > logits[$0] }) ?? true { best = id }
            }
            return best.map(Int32.init)
        }
        // Candidates: allowed tokens with a finite logit, most likely first.
        var candidates: [(id: Int, logit: Float)] = []
        var maximum = -Float.infinity
        for id in logits.indices where isAllowed(id) && logits[id].isFinite {
            maximum = max(maximum, logits[id])
        }
        guard maximum > -.infinity else { return nil }
        // Tokens 40 nats below the best have no chance worth counting; min-p may set a higher floor.
        var floor = maximum - Float(40 * temperature)
        if minimumRelativeProbability > 0 {
            floor = max(floor, maximum + Float(log(minimumRelativeProbability)))
        }
        for id in logits.indices where isAllowed(id) && logits[id] >= floor {
            candidates.append((id, logits[id]))
        }
        candidates.sort { $0.logit > $1.logit || ($0.logit == $1.logit && $0.id < $1.id) }
        if case .topK(let k) = mode { candidates = Array(candidates.prefix(max(1, k))) }
        var weights = candidates.map { exp(Double($0.logit - maximum) / temperature) }
        let total = weights.reduce(0, +)
        if case .topP(let p) = mode {
            var kept = 0
            var sum = 0.0
            while kept < weights.count {
                sum += weights[kept] / total
                kept += 1
                if sum >= p { break }
            }
            weights = Array(weights.prefix(kept))
        }
        let target = random.nextUnit() * weights.reduce(0, +)
        var running = 0.0
        for (index, weight) in weights.enumerated() {
            running += weight
            if target < running { return Int32(candidates[index].id) }
        }
        return candidates.first.map { Int32($0.id) }
    }
}
