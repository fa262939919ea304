/// What sets one transformer family apart from Llama, as llama.cpp runs each: a small description
/// per `general.architecture` that ``InferenceSession`` follows, rather than a transformer each.
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

    /// The architectures this library runs, by their `general.architecture` names.
    public static let supported = ["llama", "qwen2", "qwen3", "gemma3", "phi3"]

    /// The traits of `architecture`, or `nil` when it is not supported.
    public init?(architecture: String) {
        switch architecture {
        case "llama":
            self.init(rotaryLayout: .adjacentPairs)
        case "qwen2":
            self.init(rotaryLayout: .halves, hasProjectionBiases: true)
        case "qwen3":
            self.init(rotaryLayout: .halves, normalizesQueriesAndKeys: true)
        case "phi3":
            self.init(rotaryLayout: .halves, fusesProjections: true)
        case "gemma3":
            self.init(
                rotaryLayout: .halves, activation: .geluTanh, scalesEmbeddings: true, normalizesQueriesAndKeys: true,
                normalizesSublayerOutputs: true, globalLayerPeriod: 6, localRopeBase: 10_000)
        default:
            return nil
        }
    }

    init(
        rotaryLayout: RotaryLayout, activation: Activation = .silu, scalesEmbeddings: Bool = false,
        normalizesQueriesAndKeys: Bool = false, normalizesSublayerOutputs: Bool = false, hasProjectionBiases: Bool = false,
        fusesProjections: Bool = false, globalLayerPeriod: Int? = nil, localRopeBase: Float? = nil
    ) {
        self.rotaryLayout = rotaryLayout
        self.activation = activation
        self.scalesEmbeddings = scalesEmbeddings
        self.normalizesQueriesAndKeys = normalizesQueriesAndKeys
        self.normalizesSublayerOutputs = normalizesSublayerOutputs
        self.hasProjectionBiases = hasProjectionBiases
        self.fusesProjections = fusesProjections
        self.globalLayerPeriod = globalLayerPeriod
        self.localRopeBase = localRopeBase
    }
}
