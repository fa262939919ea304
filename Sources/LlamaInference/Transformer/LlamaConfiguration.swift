/// The hyperparameters of a transformer of the Llama family (Llama, Qwen 2 and 3, Phi-3, Gemma 3), from
/// its GGUF metadata (`ARCH.block_count` and the like, where ARCH is `general.architecture`).
public struct LlamaConfiguration: Sendable, Equatable {
    /// The `general.architecture` name.
    public let architecture: String
    public let traits: ArchitectureTraits
    public let layerCount: Int
    public let embeddingLength: Int
    public let headCount: Int
    public let keyValueHeadCount: Int
    /// The size of one head's queries, keys and values (`attention.key_length`, else width over
    /// heads).
    public let headDimension: Int
    public let feedForwardLength: Int
    /// The context the model was trained for.
    public let contextLength: Int
    public let ropeBase: Float
    public let normEpsilon: Float
    public let vocabularySize: Int
    /// How many positions back the sliding-window layers see (`attention.sliding_window`), when
    /// the architecture has such layers.
    public let slidingWindow: Int?
    /// The scale of final logits' soft cap (`final_logit_softcapping`): `c · tanh(logit / c)`.
    public let finalLogitSoftCap: Float?
    /// The factor of query-key products: one over the square root of the head size, times the
    /// square of ``ropeAttentionFactor``, which multiplies both the queries and the keys.
    public let attentionScale: Float
    /// The context length the model was trained at before its RoPE was extended (Phi-3's
    /// `rope.scaling.original_context_length`): a context longer than it takes the long RoPE
    /// factors, a shorter one the short ones.
    public let originalContextLength: Int?
    /// What the rotated queries and keys are multiplied by (`rope.scaling.attn_factor`, 1 when
    /// absent), as llama.cpp applies it.
    public let ropeAttentionFactor: Float

    /// The size of all heads' queries together.
    public var queryDimension: Int { headDimension * headCount }
    public var keyValueDimension: Int { headDimension * keyValueHeadCount }

    /// Whether layer `index` attends within the sliding window only.
    public func isSlidingWindowLayer(_ index: Int) -> Bool {
        guard slidingWindow != nil, let period = traits.globalLayerPeriod else { return false }
        return index % period < period - 1
    }

    /// The RoPE base of layer `index`.
    public func ropeBase(ofLayer index: Int) -> Float {
        isSlidingWindowLayer(index) ? traits.localRopeBase ?? ropeBase : ropeBase
    }

    public init(file: GGUFFile) throws(GGUFError) {
        let architecture = try file.string("general.architecture")
        guard let traits = ArchitectureTraits(architecture: architecture) else {
            throw .wrongType(
                key: "general.architecture",
                expected: "one of \(ArchitectureTraits.supported.joined(separator: ", ")) (this is '\(architecture)')")
        }
        self.architecture = architecture
        self.traits = traits
        let prefix = architecture + "."
        layerCount = try file.integer(prefix + "block_count")
        embeddingLength = try file.integer(prefix + "embedding_length")
        headCount = try file.integer(prefix + "attention.head_count")
        keyValueHeadCount = (try? file.integer(prefix + "attention.head_count_kv")) ?? headCount
        headDimension = (try? file.integer(prefix + "attention.key_length")) ?? embeddingLength / max(1, headCount)
        feedForwardLength = try file.integer(prefix + "feed_forward_length")
        contextLength = try file.integer(prefix + "context_length")
        ropeBase = Float((try? file.number(prefix + "rope.freq_base")) ?? 10_000)
        normEpsilon = Float(try file.number(prefix + "attention.layer_norm_rms_epsilon"))
        vocabularySize = try file.strings("tokenizer.ggml.tokens").count
        slidingWindow = traits.globalLayerPeriod == nil ? nil : (try? file.integer(prefix + "attention.sliding_window")).flatMap { $0 > 0 ? $0 : nil }
        finalLogitSoftCap = (try? file.number(prefix + "final_logit_softcapping")).flatMap { $0 > 0 ? Float($0) : nil }
        let scaleDimension = traits.queryScaleDimension(
            layerCount: layerCount, embeddingLength: embeddingLength, headCount: headCount, headDimension: headDimension)
        originalContextLength = (try? file.integer(prefix + "rope.scaling.original_context_length")).flatMap { $0 > 0 ? $0 : nil }
        ropeAttentionFactor = (try? file.number(prefix + "rope.scaling.attn_factor")).flatMap { $0 > 0 && $0.isFinite ? Float($0) : nil } ?? 1
        attentionScale = ropeAttentionFactor * ropeAttentionFactor / Float(scaleDimension).squareRoot()
        if let valueLength = try? file.integer(prefix + "attention.value_length"), valueLength != headDimension {
            throw .wrongType(key: prefix + "attention.value_length", expected: "equal to the key length (\(headDimension))")
        }
        guard layerCount > 0, layerCount <= 1024, headCount > 0, headCount <= 1024, keyValueHeadCount > 0,
            headCount % keyValueHeadCount == 0, headDimension > 0, headDimension % 2 == 0, headDimension <= 1024,
            embeddingLength > 0, embeddingLength <= 65536, feedForwardLength > 0, feedForwardLength <= 262_144, contextLength > 0,
            vocabularySize > 0
        else { throw .wrongType(key: prefix + "*", expected: "consistent hyperparameters") }
    }
}
