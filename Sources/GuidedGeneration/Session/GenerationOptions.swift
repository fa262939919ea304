/// How a response is generated: how tokens are chosen, at what temperature, and how many at most.
public struct GenerationOptions: Sendable, Equatable, Codable {
    /// How the next token is chosen among those the schema allows.
    public struct SamplingMode: Sendable, Equatable, Codable {
        /// What a sampling mode is, for a model that maps it onto its own settings.
        public enum Kind: Sendable, Equatable, Codable {
            case greedy
            case randomTopK(Int, seed: UInt64?)
            case randomProbabilityThreshold(Double, seed: UInt64?)
        }

        /// What this sampling mode is.
        public let kind: Kind

        /// Always the most likely token: the same prompt gives the same response.
        public static var greedy: SamplingMode { SamplingMode(kind: .greedy) }

        /// At random among the `k` most likely tokens; the same seed gives the same response.
        public static func random(top k: Int, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(kind: .randomTopK(k, seed: seed))
        }

        /// At random among the most likely tokens whose probabilities add up to
        /// `probabilityThreshold` (nucleus sampling); the same seed gives the same response.
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(kind: .randomProbabilityThreshold(probabilityThreshold, seed: seed))
        }
    }

    /// Whether the model may, must or must not call the session's tools.
    public struct ToolCallingMode: Sendable, Equatable, Codable {
        /// What a tool-calling mode is.
        public enum Kind: Sendable, Equatable, Codable {
            case allowed
            case required
            case disallowed
        }

        /// What this mode is.
        public let kind: Kind
        /// Beyond Apple's API: the one tool a ``required`` mode calls, as OpenAI's `tool_choice`
        /// names a function (``required(toolNamed:)``); `nil` for any of the session's tools.
        public let toolName: String?

        private init(kind: Kind, toolName: String? = nil) {
            self.kind = kind
            self.toolName = toolName
        }

        /// Beyond Apple's API: the model calls the tool named `name` before it answers, as
        /// ``required`` does with any tool; only that tool is offered in the request's first
        /// turn, and once its outputs are in, the model may answer or call any tool.
        ///
        /// ```swift
        /// let options = GenerationOptions(toolCallingMode: .required(toolNamed: "getWeather"))
        /// ```
        public static func required(toolNamed name: String) -> ToolCallingMode {
            ToolCallingMode(kind: .required, toolName: name)
        }

        /// The model answers or calls tools, as it sees fit (the default).
        public static let allowed = ToolCallingMode(kind: .allowed)
        /// The model calls tools before it answers: the request's first turn holds calls (its
        /// grammar allows nothing else), and once their outputs are in, the model may answer.
        public static let required = ToolCallingMode(kind: .required)
        /// The model answers without calling tools.
        public static let disallowed = ToolCallingMode(kind: .disallowed)
    }

    /// How tokens are chosen; `nil` for the default (nucleus sampling at 0.9, or the model's
    /// recommendation, with a fresh seed). The same setting as ``samplingMode``, by its earlier name.
    public var sampling: SamplingMode?
    /// How tokens are chosen; `nil` for the default (nucleus sampling at 0.9, or the model's
    /// recommendation, with a fresh seed).
    public var samplingMode: SamplingMode? {
        get { sampling }
        set { sampling = newValue }
    }
    /// Whether the model may call tools; `nil` for ``ToolCallingMode/allowed``.
    public var toolCallingMode: ToolCallingMode?
    /// How far from the most likely tokens sampling strays: 0 is greedy, 1 the model's own
    /// distribution; `nil` for the model's recommendation (a GGUF file's `general.sampling.temp`),
    /// else 0.7.
    public var temperature: Double?
    /// The most tokens the response may have. A structured response that is not complete by then
    /// fails with ``LanguageModelSession/GenerationError/decodingFailure(_:)``; a text response
    /// stops there.
    public var maximumResponseTokens: Int?

    // Beyond Apple's fields: the engine's own.

    /// The stages of the sampling chain beyond the sampling mode and the temperature (penalties,
    /// DRY, min-p, logit bias), each off while unset; `nil` for none.
    public var samplingSettings: SamplingSettings?
    /// A named set of sampling settings that fills in what ``samplingSettings`` leaves unset,
    /// where the grammar leaves the characters free; `nil` for the model's default (none, but
    /// ``SamplingPreset/smallModel`` on SmolLM2-135M-Instruct and ``SamplingPreset/dry`` on
    /// Qwen2.5-Coder-1.5B-Instruct, the default model, and Qwen2.5-Coder-0.5B-Instruct).
    public var samplingPreset: SamplingPreset?
    /// How structured answers are laid out; `nil` for the model's layout.
    public var jsonLayout: JSONLayout?
    /// Whether text the grammar leaves no choice about is written without asking the model
    /// (tokenized canonically); `nil` for yes. With `false` the model writes every token, as
    /// llama.cpp does, choosing among the tokens that spell the forced text.
    public var fastForwardsForcedText: Bool?
    /// The grammar a text answer follows (a request without a schema); `nil` for free text. Only
    /// the local model enforces it: a served model refuses the request. Like a structured answer,
    /// a text that the grammar does not let end within ``maximumResponseTokens`` fails with
    /// ``LanguageModelSession/GenerationError/decodingFailure(_:)``.
    public var textGrammar: TextGrammar?
    /// The most tool calls the model may make in one turn, from 1 up to 8; `nil` for 8. `1` is
    /// OpenAI's `parallel_tool_calls: false`: the model calls one tool, reads its output, and may
    /// then call the next.
    public var maximumToolCallsPerTurn: Int?
    /// How the local model writes a turn that may call tools; `nil` for the model's default,
    /// ``ToolCallFormat/jsonTurn`` on every model so far (Benchmarks/README.md compares the two
    /// formats on the Berkeley Function Calling Leaderboard). Served models use their own.
    public var toolCallFormat: ToolCallFormat?

    /// Creates options; `nil` leaves a setting at its default.
    public init(
        samplingMode: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil, toolCallingMode: ToolCallingMode?
    ) {
        self.sampling = samplingMode
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.toolCallingMode = toolCallingMode
    }

    /// Creates options; `nil` leaves a setting at its default.
    public init(samplingMode: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.init(samplingMode: samplingMode, temperature: temperature, maximumResponseTokens: maximumResponseTokens, toolCallingMode: nil)
    }

    /// Creates options with the sampling mode by its earlier name.
    public init(sampling: SamplingMode?, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.init(samplingMode: sampling, temperature: temperature, maximumResponseTokens: maximumResponseTokens, toolCallingMode: nil)
    }
}
