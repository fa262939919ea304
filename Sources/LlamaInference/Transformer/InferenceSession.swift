import Foundation
import GuidedKernels

/// One sequence running through a ``LlamaModel``: its KV cache and logits. Feed tokens with
/// ``evaluate(_:)`` (or, with other sequences at once, through a ``SequenceBatcher``) and read the
/// logits of the last one; ``truncate(to:)`` drops the end of the cache so that a shared prefix
/// is computed once.
public final class InferenceSession {
    public let model: LlamaModel
    /// How many positions the cache holds.
    public let contextLength: Int
    /// How many positions are in the cache.
    public private(set) var position = 0

    /// The cache: each layer's keys and values at every position, in 16 bits as llama.cpp keeps
    /// them (half the memory of floats), in pages of their own: only the positions written take
    /// memory, and all of it goes back to the system with the session.
    private let keys: UnsafeMutablePointer<UInt16>
    private let values: UnsafeMutablePointer<UInt16>
    private let keyPages: MappedPages
    private let valuePages: MappedPages
    /// The rotary frequencies of the global layers, and of the sliding-window layers.
    private let ropeFrequencies: UnsafeMutablePointer<Float>
    private let localRopeFrequencies: UnsafeMutablePointer<Float>
    /// Where ``logits`` start.
    let logitsStart: UnsafeMutablePointer<Float>
    /// The activations of this session's own passes, made on first use (a session whose tokens
    /// run through a ``SequenceBatcher`` has none).
    private var pass: ForwardPass?
    /// How many tokens a prefill batch holds.
    public static let batchSize = 64
    /// From how many tokens on a batch's attention sums in floats, as llama.cpp's tiled flash
    /// attention does (under it, in 16 bits).
    static let floatSumsBatch = 64
    /// How many tokens llama.cpp reads at once (its default `n_ubatch`): whether attention sums
    /// in floats depends on the size of that batch, not on the size of this engine's.
    static let roundingBatch = 512

    /// The logits of the last token evaluated.
    public let logits: UnsafeMutableBufferPointer<Float>

    /// Why tokens cannot be evaluated.
    public enum InferenceError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The tokens do not fit in the context.
        case contextFull(needed: Int, available: Int)
        /// A token id outside the vocabulary.
        case invalidToken(Int32)

        public var description: String {
            switch self {
            case .contextFull(let needed, let available): "\(needed) tokens do not fit in the \(available) positions left in the context"
            case .invalidToken(let token): "token \(token) is not in the vocabulary"
            }
        }
    }

    public init(model: LlamaModel, contextLength: Int = 2048) {
        self.model = model
        let configuration = model.configuration
        self.contextLength = max(1, min(contextLength, configuration.contextLength))
        let cacheSize = configuration.layerCount * self.contextLength * configuration.keyValueDimension
        keyPages = MappedPages(byteCount: cacheSize * MemoryLayout<UInt16>.stride)
        valuePages = MappedPages(byteCount: cacheSize * MemoryLayout<UInt16>.stride)
        keys = keyPages.start.bindMemory(to: UInt16.self, capacity: cacheSize)
        values = valuePages.start.bindMemory(to: UInt16.self, capacity: cacheSize)
        logitsStart = .allocate(capacity: max(1, configuration.vocabularySize))
        logitsStart.initialize(repeating: 0, count: max(1, configuration.vocabularySize))
        logits = UnsafeMutableBufferPointer(start: logitsStart, count: configuration.vocabularySize)
        // As llama.cpp chooses them: the long factors for a context past the original length.
        let factors = model.ropeFrequencyFactors
            ?? model.longContextRopeFactors.map { contextLength > (configuration.originalContextLength ?? configuration.contextLength) ? $0.long : $0.short }
        func frequencies(base: Float) -> [Float] {
            (0..<configuration.headDimension / 2).map { index in
                1 / powf(base, Float(2 * index) / Float(configuration.headDimension)) / (factors?[index] ?? 1)
            }
        }
        func allocated(_ values: [Float]) -> UnsafeMutablePointer<Float> {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(1, values.count))
            buffer.initialize(from: values, count: values.count)
            return buffer
        }
        ropeFrequencies = allocated(frequencies(base: configuration.ropeBase))
        localRopeFrequencies = allocated(frequencies(base: configuration.traits.localRopeBase ?? configuration.ropeBase))
    }

    deinit {
        keyPages.free()
        valuePages.free()
        ropeFrequencies.deallocate()
        localRopeFrequencies.deallocate()
        logitsStart.deallocate()
    }

    /// Drops the cache after `count` positions, so that evaluation continues from there.
    public func truncate(to count: Int) {
        position = max(0, min(count, position))
    }

    /// Makes the cache hold the first `count` positions of `other`'s, copied: a prefix computed
    /// once for conversations that begin alike. `other`, of the same model and length (the same
    /// rotary frequencies), must not be evaluating meanwhile. Returns `false`, changing nothing,
    /// when the two differ or `other` holds fewer positions.
    public func copyPrefix(_ count: Int, from other: InferenceSession) -> Bool {
        guard other !== self, other.model === model, other.contextLength == contextLength, count >= 0, count <= other.position else { return false }
        let dimension = model.configuration.keyValueDimension
        for layer in 0..<model.configuration.layerCount {
            let start = layer * dimension * contextLength
            (keys + start).update(from: other.keys + start, count: count * dimension)
            (values + start).update(from: other.values + start, count: count * dimension)
        }
        position = count
        return true
    }

    /// The cache as a forward pass writes and reads it.
    var cache: KeyValueCache {
        KeyValueCache(
            keys: keys, values: values, contextLength: contextLength, ropeFrequencies: ropeFrequencies, localRopeFrequencies: localRopeFrequencies)
    }

    /// Checks that `tokens` fit in the cache and are in the vocabulary.
    func validate(_ tokens: [Int32]) throws(InferenceError) {
        guard position + tokens.count <= contextLength else {
            throw .contextFull(needed: tokens.count, available: contextLength - position)
        }
        for token in tokens {
            guard token >= 0, Int(token) < model.configuration.vocabularySize else { throw .invalidToken(token) }
        }
    }

    /// The position of the `index`th of `count` tokens evaluated together, as a pass runs it, when
    /// `written` of them are already in the cache. Attention sums as llama.cpp's would for the
    /// batch it reads the token in: in 16 bits under ``floatSumsBatch`` tokens, else in floats.
    func position(ofToken token: Int32, at index: Int, of count: Int, after written: Int) -> SequencePosition {
        let roundingStart = index / Self.roundingBatch * Self.roundingBatch
        let roundingCount = min(count, roundingStart + Self.roundingBatch) - roundingStart
        return SequencePosition(
            cache: cache, token: token, position: position + index - written,
            halfSums: model.roundsAsLlamaCpp && roundingCount < Self.floatSumsBatch)
    }

    /// Moves the end of the cache past `count` positions a pass has written.
    func advance(by count: Int) {
        position += count
    }

    /// Runs `tokens` through the model, appending them to the cache; ``logits`` then holds the
    /// logits that follow the last one. A token decoded alone runs its products through the
    /// one-vector kernels, its work on the calling thread; several run in batches of
    /// ``batchSize``, each weight row decoded once for the batch, the work of each position shared
    /// across the threads.
    public func evaluate(_ tokens: [Int32]) throws(InferenceError) {
        try validate(tokens)
        let pass = self.pass ?? ForwardPass(model: model, rowCapacity: min(Self.batchSize, contextLength), contextLength: contextLength)
        self.pass = pass
        var start = 0
        while start < tokens.count {
            let end = min(start + pass.rowCapacity, tokens.count)
            for index in start..<end { pass.positions[index - start] = position(ofToken: tokens[index], at: index, of: tokens.count, after: start) }
            if end == tokens.count { pass.logitTargets[0] = LogitTarget(row: end - start - 1, destination: logitsStart) }
            pass.run(end - start, logitCount: end == tokens.count ? 1 : 0)
            advance(by: end - start)
            start = end
        }
    }
}
