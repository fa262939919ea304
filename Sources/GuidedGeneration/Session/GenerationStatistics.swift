/// Figures of one response: how many tokens were read and written, how many of those the schema
/// forced, and how long each part took.
public struct GenerationStatistics: Sendable, Equatable {
    /// Tokens of the conversation the response follows.
    public var promptTokens = 0
    /// Of those, tokens already in the session's cache from an earlier request or a prewarm.
    public var cachedPromptTokens = 0
    /// Tokens of the response.
    public var responseTokens = 0
    /// Of those, tokens the schema left no choice about, written without sampling.
    public var forcedTokens = 0
    /// Seconds spent reading the prompt.
    public var promptSeconds = 0.0
    /// Seconds spent writing the response.
    public var responseSeconds = 0.0
    /// Seconds from the start of the request to the first snapshot (`nil` before it).
    public var firstSnapshotSeconds: Double?
    /// Whether a text response was cut short, by the context filling up or by
    /// `maximumResponseTokens`, rather than ended by the model.
    public var isTruncated = false

    /// Response tokens per second.
    public var responseTokensPerSecond: Double {
        responseSeconds > 0 ? Double(responseTokens) / responseSeconds : 0
    }
}
