/// The hyperparameters of a Llama-family model, from its GGUF metadata.
public struct LlamaConfiguration: Sendable, Equatable {
    public let layerCount: Int
    public let embeddingLength: Int
    public let headCount: Int
    public let keyValueHeadCount: Int
    public let feedForwardLength: Int
    public let contextLength: Int
    public let ropeBase: Float
    public let normEpsilon: Float
    public let vocabularySize: Int

    public var headDimension: Int { embeddingLength / headCount }
    public var keyValueDimension: Int { headDimension * keyValueHeadCount }

    public init(file: GGUFFile) throws(GGUFError) {
        let architecture = try file.string("general.architecture")
        guard architecture == "llama" else {
            throw .wrongType(key: "general.architecture", expected: "'llama' (this is '\(architecture)')")
        }
        layerCount = try file.integer("llama.block_count")
        embeddingLength = try file.integer("llama.embedding_length")
        headCount = try file.integer("llama.attention.head_count")
        keyValueHeadCount = (try? file.integer("llama.attention.head_count_kv")) ?? headCount
        feedForwardLength = try file.integer("llama.feed_forward_length")
        contextLength = try file.integer("llama.context_length")
        ropeBase = Float((try? file.number("llama.rope.freq_base")) ?? 10_000)
        normEpsilon = Float(try file.number("llama.attention.layer_norm_rms_epsilon"))
        vocabularySize = try file.strings("tokenizer.ggml.tokens").count
        guard layerCount > 0, layerCount <= 1024, headCount > 0, keyValueHeadCount > 0, headCount % keyValueHeadCount == 0,
            embeddingLength % headCount == 0, (embeddingLength / headCount) % 2 == 0, embeddingLength <= 65536,
            feedForwardLength > 0, feedForwardLength <= 262_144, contextLength > 0
        else { throw .wrongType(key: "llama.*", expected: "consistent hyperparameters") }
    }
}
