import ChatTemplates

/// What sets one transformer family apart from Llama, as llama.cpp runs each: one description
/// per `general.architecture` (its layout, its scaling rules and the chat format its models use)
/// that ``LlamaModel``, ``InferenceSession`` and ``ChatTemplate/init(file:)`` follow, rather than
/// a transformer each. Adding an architecture is adding an entry to ``all``.
public struct ArchitectureTraits: Sendable, Equatable {
    /// Which elements of a head rotate together.
    public enum RotaryLayout: Sendable, Equatable {
        /// Elements `2i` and `2i + 1` (llama.cpp's "normal" RoPE: Llama).
        case adjacentPairs
        /// Elements `i` and `i + d/2` (llama.cpp's "NEOX" RoPE: Gemma, Qwen).
        case halves
    }

    /// The gating activation of the feed-forward network.
    public enum Activation: Sendable, Equatable {
        /// SiLU (SwiGLU).
        case silu
        /// GELU with the tanh approximation (GeGLU).
        case geluTanh
    }

    /// The size attention scores are divided by the square root of.
    public enum QueryScale: Sendable, Equatable {
        /// The size of a head.
        case headSize
        /// The width per head (embedding length / heads) for a model of `layerCount` layers, the
        /// head size for the others: Gemma 3 27B (62 layers), as llama.cpp has it.
        case widthPerHead(layerCount: Int)
    }

    /// The `general.architecture` name.
    public var name: String
    public var rotaryLayout: RotaryLayout
    public var activation: Activation
    /// Whether token embeddings are multiplied by √width before the first layer.
    public var scalesEmbeddings: Bool
    /// Whether queries and keys are RMS-normalized per head (`attn_q_norm`, `attn_k_norm`).
    public var normalizesQueriesAndKeys: Bool
    /// Whether the outputs of attention and of the feed-forward network are normalized before
    /// they join the residual stream (`post_attention_norm`, `post_ffw_norm`).
    public var normalizesSublayerOutputs: Bool
    /// Whether the query, key and value projections have biases (`attn_q.bias`, ...).
    public var hasProjectionBiases: Bool
    /// Whether the query, key and value projections are one tensor (`attn_qkv`, in that order),
    /// and the gate and up projections one (`ffn_up`, gate first): Phi-3.
    public var fusesProjections: Bool
    /// Every how many layers one attends to the whole context when the model has a sliding
    /// window (the others attend within the window): Gemma 3's 6, five local layers then a
    /// global one.
    public var globalLayerPeriod: Int?
    /// The RoPE base of the sliding-window layers, when it differs from the global one.
    public var localRopeBase: Float?
    public var queryScale: QueryScale
    /// The format the architecture's models write conversations in, used when a file has no
    /// `tokenizer.chat_template` (`nil`: the file must have one, or a format must be named).
    public var chatTemplate: ChatTemplate?

    /// The architectures this library runs.
    public static let all: [ArchitectureTraits] = [
        ArchitectureTraits(name: "llama", rotaryLayout: .adjacentPairs),
        ArchitectureTraits(name: "qwen2", rotaryLayout: .halves, hasProjectionBiases: true, chatTemplate: .chatML(defaultSystem: nil)),
        ArchitectureTraits(name: "qwen3", rotaryLayout: .halves, normalizesQueriesAndKeys: true, chatTemplate: .chatML(defaultSystem: nil)),
        ArchitectureTraits(name: "gemma3", rotaryLayout: .halves, activation: .geluTanh, scalesEmbeddings: true, normalizesQueriesAndKeys: true,
            normalizesSublayerOutputs: true, globalLayerPeriod: 6, localRopeBase: 10_000, queryScale: .widthPerHead(layerCount: 62),
            chatTemplate: .gemma),
        ArchitectureTraits(name: "phi3", rotaryLayout: .halves, fusesProjections: true, chatTemplate: .phi),
    ]

    /// The `general.architecture` names of the architectures this library runs.
    public static let supported = all.map(\.name)

    /// The traits of `architecture`, or `nil` when it is not supported.
    public init?(architecture: String) {
        guard let traits = Self.all.first(where: { $0.name == architecture }) else { return nil }
        self = traits
    }

    init(
        name: String, rotaryLayout: RotaryLayout, activation: Activation = .silu, scalesEmbeddings: Bool = false,
        normalizesQueriesAndKeys: Bool = false, normalizesSublayerOutputs: Bool = false, hasProjectionBiases: Bool = false,
        fusesProjections: Bool = false, globalLayerPeriod: Int? = nil, localRopeBase: Float? = nil, queryScale: QueryScale = .headSize,
        chatTemplate: ChatTemplate? = nil
    ) {
        self.name = name
        self.rotaryLayout = rotaryLayout
        self.activation = activation
        self.scalesEmbeddings = scalesEmbeddings
        self.normalizesQueriesAndKeys = normalizesQueriesAndKeys
        self.normalizesSublayerOutputs = normalizesSublayerOutputs
        self.hasProjectionBiases = hasProjectionBiases
        self.fusesProjections = fusesProjections
        self.globalLayerPeriod = globalLayerPeriod
        self.localRopeBase = localRopeBase
        self.queryScale = queryScale
        self.chatTemplate = chatTemplate
    }

    /// The size attention scores are divided by the square root of, for a model of this
    /// architecture with these sizes.
    func queryScaleDimension(layerCount: Int, embeddingLength: Int, headCount: Int, headDimension: Int) -> Int {
        switch queryScale {
        case .headSize: headDimension
        case .widthPerHead(let layers): layerCount == layers ? embeddingLength / max(1, headCount) : headDimension
        }
    }
}
