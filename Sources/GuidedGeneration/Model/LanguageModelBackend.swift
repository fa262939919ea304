import PartialJSON

/// A model at the level of tokens and logits, which this library's constrained decoder drives:
/// the embedded GGUF model, another local model, or a deterministic model for tests.
///
/// It is not a second way to bring a model: ``SystemLanguageModel/init(backend:useCase:guardrails:)``
/// adapts any backend to a ``LanguageModel``, whose executor runs the engine over it, so every
/// session API works on it through the same slot as any other model. A model that writes its own
/// text (a server, another inference engine) is a ``LanguageModel`` with its own
/// ``LanguageModelExecutor`` instead.
///
/// The engine drives a backend one token at a time: it renders the conversation with
/// ``LoadedLanguageModel/conversationText(_:)``, tokenizes it, and asks a
/// ``LanguageModelContext`` for the logits of each next token, which the constrained decoder
/// masks and samples.
public protocol LanguageModelBackend: Sendable {
    /// Whether the model can be loaded now.
    var availability: SystemLanguageModel.Availability { get }
    /// How many tokens (instructions, transcript, prompt and response together) a session holds
    /// at most; fewer when the loaded model was trained for fewer
    /// (``LoadedLanguageModel/trainedContextLength``).
    var contextSize: Int { get }
    /// Loads the model (reading weights, fetching files on first use). Called once per
    /// ``SystemLanguageModel``; `progress` receives lines to show a person waiting.
    func load(progress: @Sendable (String) -> Void) throws -> any LoadedLanguageModel
}

/// A loaded model: its vocabulary, its chat template, and contexts to run tokens in.
public protocol LoadedLanguageModel: AnyObject, Sendable {
    /// The raw bytes of every token, by id.
    var tokenBytes: [[UInt8]] { get }
    /// Tokens that never appear inside generated text (control tokens).
    var specialTokens: Set<Int32> { get }
    /// The tokens that end the model's turn.
    var stopTokens: Set<Int32> { get }
    /// The token ids of `text`. With `parsingSpecialTokens` (for rendered conversations) the
    /// text of a special token stands for it; without (for generated text) it is ordinary text.
    func tokenize(_ text: String, parsingSpecialTokens: Bool) -> [Int32]
    /// The conversation as the model expects to read it, ending with the opening of the
    /// assistant's turn. Throws when the model's chat template cannot write it (a Jinja
    /// template that raises an exception for the conversation, such as for a role it refuses).
    func conversationText(_ messages: [ConversationMessage]) throws -> String
    /// The conversation with `tools` (OpenAI function objects, `{"type": "function",
    /// "function": {"name", "description", "parameters"}}`) presented by the model's own chat
    /// template, which writes past calls (``ConversationMessage/toolCalls``) and outputs (`tool`
    /// messages) in its own format, ending with the opening of the assistant's turn; `nil` when
    /// the template has no tool-call format of `<tool_call>` tags (``ToolCallFormat/modelTemplate``).
    func conversationText(_ messages: [ConversationMessage], tools: [JSONValue]) throws -> String?
    /// A new context of `size` positions.
    func makeContext(size: Int) throws -> any LanguageModelContext
    /// The longest context the model was trained for, when it says (a GGUF file's
    /// `ARCH.context_length`): sessions hold no more than that.
    var trainedContextLength: Int? { get }
    /// The temperature the model's authors recommend (a GGUF file's `general.sampling.temp`),
    /// used when a request's ``GenerationOptions/temperature`` is `nil`.
    var recommendedTemperature: Double? { get }
    /// The nucleus share they recommend (`general.sampling.top_p`), used when a request leaves
    /// the sampling mode to the engine.
    var recommendedProbabilityThreshold: Double? { get }
    /// The min-p share they recommend (`general.sampling.min_p`) for random sampling.
    var recommendedMinimumRelativeProbability: Double? { get }
    /// The spaces per level of the layout the model writes JSON answers in, a member or element
    /// per line; `nil` for compact JSON. Small models answer better in the layout of the pages
    /// they learned from. Tool turns are compact either way.
    var jsonIndentation: Int? { get }
    /// The sampling preset of requests that name none; `nil` for none (the model's distribution
    /// as it is).
    var samplingPreset: SamplingPreset? { get }
}

extension LoadedLanguageModel {
    /// No limit of its own by default: the backend's ``LanguageModelBackend/contextSize`` holds.
    public var trainedContextLength: Int? { nil }
    /// No advice by default: the engine's defaults hold.
    public var recommendedTemperature: Double? { nil }
    public var recommendedProbabilityThreshold: Double? { nil }
    public var recommendedMinimumRelativeProbability: Double? { nil }
    /// Compact JSON by default.
    public var jsonIndentation: Int? { nil }
    /// No preset by default.
    public var samplingPreset: SamplingPreset? { nil }
    /// No tool-call format of its own by default.
    public func conversationText(_ messages: [ConversationMessage], tools: [JSONValue]) throws -> String? { nil }
}

/// One sequence of tokens running through a model, with its cache.
public protocol LanguageModelContext: AnyObject {
    /// How many tokens the cache holds.
    var count: Int { get }
    /// Drops the cache after `count` tokens.
    func truncate(to count: Int)
    /// Appends `tokens` to the cache and returns the logits that follow the last one (valid until
    /// the next call).
    func evaluate(_ tokens: [Int32]) throws -> UnsafeBufferPointer<Float>
    /// Says that no tokens follow until the next request: a model that runs the tokens of
    /// several contexts together need not wait for this one's next token. `unread` are the
    /// tokens the model wrote last that were not read into the cache, as nothing needed the
    /// logits after them (the answer was complete, or its budget spent): the next request that
    /// continues the conversation reads them with its prompt.
    func pause(unread: [Int32])
    /// Makes this context hold the first `count` tokens of `other`'s cache, copied rather than
    /// computed, so that conversations that begin alike compute their beginning once. Returns
    /// `false`, holding nothing new, when it cannot (another kind of context, or another model).
    func copyPrefix(_ count: Int, from other: any LanguageModelContext) -> Bool
}

extension LanguageModelContext {
    /// Nothing to say by default: a context that runs alone waits for no other.
    public func pause(unread: [Int32]) {}
    /// Nothing copied by default: the context computes every token it holds.
    public func copyPrefix(_ count: Int, from other: any LanguageModelContext) -> Bool { false }
}
