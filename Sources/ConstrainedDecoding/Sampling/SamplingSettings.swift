/// The settings of the stages of a ``SamplingChain``, each off while unset: the chain then
/// draws from the model's own distribution over the tokens the grammar allows (greedy takes its
/// most likely one).
///
/// The stages run in this order (as llama.cpp's default sampler chain has them):
/// 1. ``logitBias``: a fixed amount added to chosen tokens' logits;
/// 2. ``repetitionPenalty``: llama.cpp's `repeat_penalty` over the last ``penaltyWindow`` tokens;
/// 3. ``frequencyPenalty`` and ``presencePenalty``: OpenAI's, over the same window;
/// 4. ``dry``: llama.cpp's DRY ("don't repeat yourself") penalty;
/// 5. the grammar's mask;
/// 6. ``topK``, then ``topP``, then ``minP``, on the probabilities before the temperature;
/// 7. ``temperature``, and the draw.
public struct SamplingSettings: Sendable, Equatable, Codable {
    /// Divides the logits before the draw; at or below 0 the choice is greedy. `nil` is 1, the
    /// model's own distribution.
    public var temperature: Double?
    /// Only the `k` most likely tokens stay (`nil` or at most 0: all).
    public var topK: Int?
    /// Only the most likely tokens whose probabilities add up to `p` stay (nucleus sampling;
    /// `nil` or 1: all).
    public var topP: Double?
    /// Only the tokens whose probability is at least this share of the most likely one's stay
    /// (`nil` or 0: all).
    public var minP: Double?
    /// Divides the positive logits, and multiplies the negative ones, of every token in the last
    /// ``penaltyWindow`` tokens (llama.cpp's `repeat_penalty`; `nil` or 1: off).
    public var repetitionPenalty: Float?
    /// Subtracted from a token's logit once for each time it is in the window (OpenAI's
    /// `frequency_penalty`; `nil` or 0: off).
    public var frequencyPenalty: Float?
    /// Subtracted from a token's logit when it is in the window at all (OpenAI's
    /// `presence_penalty`; `nil` or 0: off).
    public var presencePenalty: Float?
    /// How many of the last tokens of the context (prompt and response, see ``penalizesPrompt``)
    /// the three penalties above count (`nil`: ``defaultPenaltyWindow``, llama.cpp's `repeat_last_n`).
    public var penaltyWindow: Int?
    /// The DRY penalty (`nil`, or a multiplier of 0: off).
    public var dry: DRYSettings?
    /// Whether the penalties count the prompt's tokens too, as llama.cpp's do (`nil`: yes); with
    /// `false` they count only the response's, so that an answer may quote its context.
    public var penalizesPrompt: Bool?
    /// Added to the logits of the tokens named, by id (OpenAI's and llama.cpp's `logit_bias`;
    /// `-infinity` rules a token out).
    public var logitBias: [Int32: Float]?

    /// The window of the repetition, frequency and presence penalties when none is set.
    public static let defaultPenaltyWindow = 64

    public init(
        temperature: Double? = nil, topK: Int? = nil, topP: Double? = nil, minP: Double? = nil, repetitionPenalty: Float? = nil,
        frequencyPenalty: Float? = nil, presencePenalty: Float? = nil, penaltyWindow: Int? = nil, dry: DRYSettings? = nil,
        penalizesPrompt: Bool? = nil, logitBias: [Int32: Float]? = nil
    ) {
        self.penalizesPrompt = penalizesPrompt
        self.temperature = temperature
        self.topK = topK
        self.topP = topP
        self.minP = minP
        self.repetitionPenalty = repetitionPenalty
        self.frequencyPenalty = frequencyPenalty
        self.presencePenalty = presencePenalty
        self.penaltyWindow = penaltyWindow
        self.dry = dry
        self.logitBias = logitBias
    }

    /// These settings, with each stage left unset here taken from `other`.
    public func filled(from other: SamplingSettings) -> SamplingSettings {
        SamplingSettings(
            temperature: temperature ?? other.temperature, topK: topK ?? other.topK, topP: topP ?? other.topP, minP: minP ?? other.minP,
            repetitionPenalty: repetitionPenalty ?? other.repetitionPenalty, frequencyPenalty: frequencyPenalty ?? other.frequencyPenalty,
            presencePenalty: presencePenalty ?? other.presencePenalty, penaltyWindow: penaltyWindow ?? other.penaltyWindow,
            dry: dry ?? other.dry, penalizesPrompt: penalizesPrompt ?? other.penalizesPrompt, logitBias: logitBias ?? other.logitBias)
    }

    /// Whether the choice is the most likely allowed token.
    public var isGreedy: Bool { (temperature ?? 1) <= 0 || topK == 1 }

    /// Whether a stage changes logits before the mask (a bias or a penalty is set).
    var adjustsLogits: Bool {
        !(logitBias?.isEmpty ?? true) || (repetitionPenalty ?? 1) != 1 || (frequencyPenalty ?? 0) != 0 || (presencePenalty ?? 0) != 0
            || (dry?.multiplier ?? 0) != 0
    }
}

/// The settings of llama.cpp's DRY penalty: when the context ends with a run of tokens that
/// also came earlier, the token that followed the earlier run (which would make the repeat one
/// longer) has `multiplier * base^(length - allowedLength)` taken off its logit, once the run is
/// `allowedLength` tokens or more. Runs do not reach back across a token that holds one of the
/// ``sequenceBreakers``.
public struct DRYSettings: Sendable, Hashable, Codable {
    /// The penalty of a repeat of ``allowedLength`` tokens; 0 turns DRY off.
    public var multiplier: Float
    /// How fast the penalty grows with each further token of the repeat.
    public var base: Float
    /// The shortest repeat that is penalized.
    public var allowedLength: Int
    /// How many of the last tokens of the context are searched for repeats (`nil`: all).
    public var window: Int?
    /// Texts that end runs: a token holding one of them is never part of a repeat.
    public var sequenceBreakers: [String]

    /// llama.cpp's default breakers: a line break, a colon, a quote and an asterisk.
    public static let defaultSequenceBreakers = ["\n", ":", "\"", "*"]

    public init(
        multiplier: Float, base: Float = 1.75, allowedLength: Int = 2, window: Int? = nil, sequenceBreakers: [String] = Self.defaultSequenceBreakers
    ) {
        self.multiplier = multiplier
        self.base = base
        self.allowedLength = allowedLength
        self.window = window
        self.sequenceBreakers = sequenceBreakers
    }
}
