@testable import ConstrainedDecoding
import Foundation
import Testing

/// Each stage of the sampling chain, on ordinary inputs, and the chain's order: nothing acts
/// unless set, and a preset acts only in free text.
@Suite struct SamplingChainTests {
    static func adjusted(_ logits: [Float], _ body: (UnsafeMutableBufferPointer<Float>) -> Void) -> [Float] {
        var copy = logits
        copy.withUnsafeMutableBufferPointer { body($0) }
        return copy
    }

    @Test func theRepetitionPenaltyDividesPositiveAndMultipliesNegativeLogits() {
        let result = Self.adjusted([2, -2, 2, 1]) { RepetitionPenalty(2).apply(to: $0, window: [0, 1, 1, 9]) }
        #expect(result == [1, -4, 2, 1], "tokens 0 and 1 are in the window, however often; 9 is outside the vocabulary")
        #expect(Self.adjusted([2, -2]) { RepetitionPenalty(1).apply(to: $0, window: [0, 1]) } == [2, -2])
    }

    @Test func frequencyAndPresencePenaltiesCountAsOpenAIs() {
        let result = Self.adjusted([0, 0, 0]) { FrequencyPresencePenalty(frequency: 0.5, presence: 1).apply(to: $0, window: [0, 0, 0, 1]) }
        #expect(result == [-2.5, -1.5, 0])
    }

    @Test func aLogitBiasAddsItsAmounts() {
        #expect(Self.adjusted([1, 1, 1]) { LogitBias([0: 2, 2: -.infinity, 7: 1]).apply(to: $0) } == [3, 1, -.infinity])
    }

    /// Tokens: 0-4 the words "a".."e", 5 a newline, 6 the digits "12", 7 a quote.
    static let tokens: [[UInt8]] = ["a", "b", "c", "d", "e", "\n", "12", "\""].map { Array($0.utf8) }

    @Test func dryPenalizesTheTokenThatExtendsARepeat() {
        let dry = DRYPenalty(settings: DRYSettings(multiplier: 1, base: 2, allowedLength: 2), tokens: Self.tokens)
        // "a b c d . a b c" : the repeat "a b c" (3 tokens) is extended by "d".
        let result = Self.adjusted([0, 0, 0, 0, 0, 0, 0, 0]) { dry.apply(to: $0, history: [0, 1, 2, 3, 4, 0, 1, 2]) }
        #expect(result == [0, 0, 0, -2, 0, 0, 0, 0], "1 * 2^(3 - 2)")
        // A repeat shorter than the allowed length is left alone.
        let short = Self.adjusted([0, 0, 0, 0, 0, 0, 0, 0]) { dry.apply(to: $0, history: [0, 1, 4, 3, 0]) }
        #expect(short == [0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func dryStopsAtBreakersAndLeavesDigitsAlone() {
        let dry = DRYPenalty(settings: DRYSettings(multiplier: 1, base: 2, allowedLength: 2), tokens: Self.tokens)
        // The newline breaks the run: only "a b" repeats, as long as allowed.
        let broken = Self.adjusted([0, 0, 0, 0, 0, 0, 0, 0]) { dry.apply(to: $0, history: [5, 0, 1, 3, 5, 0, 1]) }
        #expect(broken[3] == -1)
        // Digits continue a repeat without penalty (numbers repeat digits).
        let digits = Self.adjusted([0, 0, 0, 0, 0, 0, 0, 0]) { dry.apply(to: $0, history: [0, 1, 6, 4, 0, 1]) }
        #expect(digits == [0, 0, 0, 0, 0, 0, 0, 0])
        // A window that leaves the earlier run out sees no repeat.
        let windowed = DRYPenalty(settings: DRYSettings(multiplier: 1, base: 2, allowedLength: 2, window: 4), tokens: Self.tokens)
        #expect(Self.adjusted([0, 0, 0, 0, 0, 0, 0, 0]) { windowed.apply(to: $0, history: [0, 1, 2, 3, 4, 0, 1, 2]) } == [0, 0, 0, 0, 0, 0, 0, 0])
    }

    static let candidates = [TokenCandidate(id: 3, logit: 2), TokenCandidate(id: 1, logit: 1), TokenCandidate(id: 0, logit: 0), TokenCandidate(id: 2, logit: -3)]

    @Test func truncationStagesKeepWhatLlamaCppKeeps() {
        var topK = Self.candidates
        TopK(2).apply(to: &topK)
        #expect(topK.map(\.id) == [3, 1])
        var all = Self.candidates
        TopK(0).apply(to: &all)
        #expect(all == Self.candidates)
        // Probabilities: 0.6623, 0.2436, 0.0896, 0.0045. Top-p keeps the most likely up to the
        // one that reaches p: 0.906 with two, 0.996 with three.
        var topP = Self.candidates
        TopP(0.9).apply(to: &topP)
        #expect(topP.map(\.id) == [3, 1])
        var wider = Self.candidates
        TopP(0.95).apply(to: &wider)
        #expect(wider.map(\.id) == [3, 1, 0])
        var minP = Self.candidates
        MinP(0.3).apply(to: &minP)
        #expect(minP.map(\.id) == [3, 1], "e^-1 = 0.37 of the best stays, e^-2 = 0.14 goes")
    }

    @Test func theTemperatureShapesTheDraw() {
        let pair = [TokenCandidate(id: 0, logit: 1), TokenCandidate(id: 1, logit: 0)]
        // At temperature 1 the first has e/(e+1) = 0.731 of the draw; at 0.5, 0.881.
        #expect(Temperature(1).draw(from: pair, unit: 0.72) == 0)
        #expect(Temperature(1).draw(from: pair, unit: 0.74) == 1)
        #expect(Temperature(0.5).draw(from: pair, unit: 0.87) == 0)
    }

    /// With no stage set, the chain draws from the model's distribution over the allowed tokens:
    /// the frequencies follow the softmax of the logits.
    @Test func withNothingSetTheDrawIsTheModels() {
        let logits: [Float] = [log(0.5), log(0.3), log(0.2)]
        var counts = [0, 0, 0]
        var chain = SamplingChain(settings: SamplingSettings(), seed: 7)
        for _ in 0..<6000 {
            if let token = logits.withUnsafeBufferPointer({ chain.choose(logits: $0, allowed: nil) }) { counts[Int(token)] += 1 }
        }
        #expect(abs(Double(counts[0]) / 6000 - 0.5) < 0.03 && abs(Double(counts[1]) / 6000 - 0.3) < 0.03 && abs(Double(counts[2]) / 6000 - 0.2) < 0.03)
    }

    /// Min-p is measured before the temperature, as in llama.cpp's chain: a high temperature
    /// does not bring the tail back.
    @Test func minPComesBeforeTheTemperature() {
        let logits: [Float] = [0, -3]
        var chain = SamplingChain(settings: SamplingSettings(temperature: 5, minP: 0.1), seed: 1)
        for _ in 0..<500 { #expect(logits.withUnsafeBufferPointer { chain.choose(logits: $0, allowed: nil) } == 0) }
    }

    /// The penalties work on a copy: the model's logits are never written.
    @Test func theLogitsAreNotWritten() {
        let logits: [Float] = [3, 2, 1]
        var chain = SamplingChain(settings: SamplingSettings(temperature: 0, repetitionPenalty: 10))
        let token = logits.withUnsafeBufferPointer { chain.choose(logits: $0, history: [0], allowed: nil) }
        #expect(token == 1, "3 / 10 falls below 2")
        #expect(logits == [3, 2, 1])
    }

    /// A preset's settings apply where the grammar leaves the characters free, not in an enum.
    @Test func freeTextSettingsActOnlyInFreeText() throws {
        let tokens = (0...255).map { [UInt8($0)] } + [[]]
        let vocabulary = Vocabulary(tokens: tokens, specialTokens: [], endOfText: 256)
        let grammar = try CompiledGrammar(
            jsonSchema: #"{"type":"object","properties":{"a":{"type":"string"},"b":{"enum":["xy","zy"]}},"required":["a","b"],"additionalProperties":false}"#)
        let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
        var logits = [Float](repeating: 0, count: tokens.count)
        logits[Int(UInt8(ascii: "x"))] = 2
        logits[Int(UInt8(ascii: "z"))] = 1
        var chain = SamplingChain(
            settings: SamplingSettings(temperature: 0), freeTextSettings: SamplingSettings(logitBias: [Int32(UInt8(ascii: "x")): -5]))
        var mask = TokenBitset(capacity: tokens.count)
        #expect(matcher.advance(bytes: #"{"a":""#.utf8))
        #expect(matcher.isInFreeText)
        #expect(logits.withUnsafeBufferPointer { chain.sample(logits: $0, constraint: matcher, mask: &mask) } == Int32(UInt8(ascii: "z")))
        #expect(matcher.advance(bytes: #"","b":""#.utf8))
        #expect(!matcher.isInFreeText)
        #expect(logits.withUnsafeBufferPointer { chain.sample(logits: $0, constraint: matcher, mask: &mask) } == Int32(UInt8(ascii: "x")))
    }

    /// A fixed set of allowed tokens, free text or not: a source of masks that is not a grammar.
    struct FixedMask: TokenConstraint {
        var allowed: Set<Int32>
        var isInFreeText: Bool
        func canAdvance(token: Int32) -> Bool { allowed.contains(token) }
        func allowedTokens(into mask: inout TokenBitset) {
            mask.removeAll()
            for token in allowed { mask.insert(token) }
        }
    }

    /// The chain reads masks from any constraint: greedy takes the best allowed token, a draw
    /// never leaves the mask, and the free-text settings follow the constraint's say.
    @Test func theChainSamplesUnderAnyConstraint() {
        let logits: [Float] = [5, 4, 3, 2, 1]
        var mask = TokenBitset(capacity: logits.count)
        var greedy = SamplingChain()
        let allowed = FixedMask(allowed: [2, 4], isInFreeText: false)
        #expect(logits.withUnsafeBufferPointer { greedy.sample(logits: $0, constraint: allowed, mask: &mask) } == 2)
        #expect(mask.ids == [2, 4], "the best token was refused, so the mask was read")
        let none = FixedMask(allowed: [], isInFreeText: false)
        #expect(logits.withUnsafeBufferPointer { greedy.sample(logits: $0, constraint: none, mask: &mask) } == nil)
        var random = SamplingChain(settings: SamplingSettings(temperature: 1), seed: 7)
        for _ in 0..<50 {
            let token = logits.withUnsafeBufferPointer { random.sample(logits: $0, constraint: allowed, mask: &mask) }
            #expect(token == 2 || token == 4)
        }
        var preset = SamplingChain(settings: SamplingSettings(temperature: 0), freeTextSettings: SamplingSettings(logitBias: [2: -5]))
        #expect(logits.withUnsafeBufferPointer { preset.sample(logits: $0, constraint: allowed, mask: &mask) } == 2)
        let free = FixedMask(allowed: [2, 4], isInFreeText: true)
        #expect(logits.withUnsafeBufferPointer { preset.sample(logits: $0, constraint: free, mask: &mask) } == 4)
    }

    /// The radix order of the candidates is the comparison sort's: most likely first, the lowest
    /// id first among equal logits (ties, -0 against +0, negative and positive logits, subnormal
    /// ones, more candidates than a digit's buckets, and none).
    /// The softmax weights agree with the library's `exp` to a float's precision, over the
    /// whole range a draw uses, and a vector of them sums as the single weights do.
    @Test func softmaxWeightsAreTheExponentials() {
        var generator = SeededRandom(seed: 5)
        let xs = (0..<4_099).map { _ in -Float.random(in: 0...90, using: &generator) } + [0, -1e-30, -87.2, -87.4, -200]
        for x in xs {
            let expected = exp(Double(x))
            #expect(abs(Double(SoftmaxWeight.weight(x)) - expected) <= expected * 3e-7 + (x < -87.3 ? 1e-37 : 0), "exp(\(x))")
        }
        let total = xs.withUnsafeBufferPointer { SoftmaxWeight.total($0, top: 0, inverseTemperature: 1) }
        let expected = xs.reduce(0.0) { $0 + Double(SoftmaxWeight.weight($1)) }
        #expect(abs(total - expected) <= expected * 1e-6)
        let halved = xs.withUnsafeBufferPointer { SoftmaxWeight.total($0, top: 1, inverseTemperature: 0.5) }
        #expect(abs(halved - xs.reduce(0.0) { $0 + exp(Double($1 - 1) / 2) }) <= halved * 1e-6)
    }

    @Test func candidatesComeInTheComparisonSortsOrder() {
        var generator = SystemRandomNumberGenerator()
        var order = CandidateOrder()
        for count in [0, 1, 7, 3_000, 40_000] {
            var candidates = (0..<count).map { id in
                let logit: Float = switch id % 7 {
                case 0: Float(Int.random(in: -3...3, using: &generator))
                case 1: -0.0
                case 2: 0
                case 3: Float.leastNonzeroMagnitude * Float(Int.random(in: -2...2, using: &generator))
                default: Float.random(in: -60...30, using: &generator)
                }
                return TokenCandidate(id: Int32(id), logit: logit)
            }
            candidates.shuffle(using: &generator)
            let expected = candidates.sorted { $0.logit > $1.logit || ($0.logit == $1.logit && $0.id < $1.id) }
            order.sort(&candidates)
            #expect(candidates.map(\.id) == expected.map(\.id), "\(count) candidates")
            #expect(candidates.map(\.logit) == expected.map(\.logit), "\(count) candidates: the logits come back")
        }
    }

    /// The chain sorts only the head of the order that its stages read: every draw is the one a
    /// full sort of the candidates gives, on flat and peaked logits, with ties, under a mask,
    /// whatever stages are set.
    @Test func theChainDrawsAsAFullSortWould() {
        var generator = SeededRandom(seed: 11)
        let stages = [
            SamplingSettings(), SamplingSettings(temperature: 0.7, topP: 0.9), SamplingSettings(temperature: 1.5, topK: 5),
            SamplingSettings(temperature: 0.8, topK: 40, topP: 0.95, minP: 0.05), SamplingSettings(minP: 0.1), SamplingSettings(topP: 0.999),
        ]
        for (round, settings) in stages.enumerated() {
            for spread: Float in [0.5, 4, 12] {
                let logits = (0..<3_000).map { id in id % 5 == 0 ? Float(Int(Float.random(in: 0...3, using: &generator))) : Float.random(in: -spread...spread, using: &generator) }
                var allowed = TokenBitset(capacity: logits.count)
                for id in 0..<logits.count where id % 3 != 1 { allowed.insert(Int32(id)) }
                for mask in [nil, allowed] {
                    let seed = UInt64(round * 100) + UInt64(spread)
                    var chain = SamplingChain(settings: settings, seed: seed)
                    var units = SeededRandom(seed: seed)
                    for _ in 0..<20 {
                        let drawn = logits.withUnsafeBufferPointer { chain.choose(logits: $0, allowed: mask) }
                        let expected = Self.fullSortDraw(logits, allowed: mask, settings: settings, unit: units.nextUnit())
                        #expect(drawn == expected, "settings \(round), spread \(spread)")
                    }
                }
            }
        }
    }

    /// The draw of a chain that sorts every candidate first, with each stage written out (and the
    /// chain's weights).
    static func fullSortDraw(_ logits: [Float], allowed: TokenBitset?, settings: SamplingSettings, unit: Double) -> Int32? {
        let temperature = settings.temperature ?? 1
        guard let top = logits.indices.filter({ allowed?.contains(Int32($0)) ?? true }).map({ logits[$0] }).max() else { return nil }
        var candidates = logits.indices
            .filter { logits[$0] >= top - Float(40 * max(1, temperature)) && (allowed?.contains(Int32($0)) ?? true) }
            .map { TokenCandidate(id: Int32($0), logit: logits[$0]) }
            .sorted { $0.logit > $1.logit || ($0.logit == $1.logit && $0.id < $1.id) }
        func probabilities(_ temperature: Double) -> [Double] {
            let weights = candidates.map { Double(SoftmaxWeight.weight(($0.logit - top) * Float(1 / temperature))) }
            let total = weights.reduce(0, +)
            return weights.map { $0 / total }
        }
        if let k = settings.topK, k > 0 { candidates = Array(candidates.prefix(k)) }
        if let p = settings.topP, p < 1 {
            var sum = 0.0
            let kept = probabilities(1).prefix { probability in
                defer { sum += probability }
                return sum < p
            }.count
            candidates = Array(candidates.prefix(kept))
        }
        if let p = settings.minP { candidates = candidates.filter { Double($0.logit) >= Double(top) + log(p) } }
        var running = 0.0
        for (candidate, probability) in zip(candidates, probabilities(temperature)) {
            running += probability
            if unit < running { return candidate.id }
        }
        return candidates.last?.id
    }
}
