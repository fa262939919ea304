/// How a response is generated: how tokens are chosen, at what temperature, and how many at most.
public struct GenerationOptions: Sendable, Equatable, Codable {
    /// How the next token is chosen among those the schema allows.
    public struct SamplingMode: Sendable, Equatable, Codable {
        enum Kind: Sendable, Equatable, Codable {
            case greedy
            case top(Int, seed: UInt64?)
            case probabilityThreshold(Double, seed: UInt64?)
        }

        let kind: Kind

        /// Always the most likely token: the same prompt gives the same response.
        public static var greedy: SamplingMode { SamplingMode(kind: .greedy) }

        /// At random among the `k` most likely tokens; the same seed gives the same response.
        public static func random(top k: Int, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(kind: .top(k, seed: seed))
        }

        /// At random among the most likely tokens whose probabilities add up to
        /// `probabilityThreshold` (nucleus sampling); the same seed gives the same response.
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(kind: .probabilityThreshold(probabilityThreshold, seed: seed))
        }
    }

    /// How tokens are chosen; `nil` for the default (nucleus sampling at 0.9 with a fresh seed).
    public var sampling: SamplingMode?
    /// How far from the most likely tokens sampling strays: 0 is greedy, 1 the model's own
    /// distribution; `nil` for the default (0.7).
    public var temperature: Double?
    /// The most tokens the response may have. A structured response that is not complete by then
    /// fails with ``LanguageModelSession/GenerationError/decodingFailure(_:)``; a text response
    /// stops there.
    public var maximumResponseTokens: Int?

    /// Creates options; `nil` leaves a setting at its default.
    public init(sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
    }
}
