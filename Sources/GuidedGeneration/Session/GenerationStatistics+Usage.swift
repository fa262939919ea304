extension GenerationStatistics {
    /// The names under which this engine reports its own figures in a usage's metadata.
    private enum Key {
        static let forcedTokens = "forcedTokens"
        static let promptSeconds = "promptSeconds"
        static let responseSeconds = "responseSeconds"
        static let firstSnapshotSeconds = "firstSnapshotSeconds"
        static let isTruncated = "isTruncated"
    }

    /// The figures of a turn as its model reported them: the token counts of its usage, and
    /// the figures this engine adds as the usage's metadata (``usageMetadata``); a model that
    /// reports none of them leaves them at zero.
    init(usage: LanguageModelSession.Usage) {
        self.init()
        promptTokens = usage.input.totalTokenCount
        cachedPromptTokens = usage.input.cachedTokenCount
        responseTokens = usage.output.totalTokenCount
        func number(_ key: String) -> Double? {
            if case .number(let value)? = usage.metadata[key]?.kind { value } else { nil }
        }
        forcedTokens = number(Key.forcedTokens).map { Int($0) } ?? 0
        promptSeconds = number(Key.promptSeconds) ?? 0
        responseSeconds = number(Key.responseSeconds) ?? 0
        firstSnapshotSeconds = number(Key.firstSnapshotSeconds)
        if case .bool(let truncated)? = usage.metadata[Key.isTruncated]?.kind { isTruncated = truncated }
    }

    /// The figures beyond the token counts, as a usage's metadata.
    var usageMetadata: [String: any ConvertibleToGeneratedContent] {
        var metadata: [String: any ConvertibleToGeneratedContent] = [
            Key.forcedTokens: forcedTokens, Key.promptSeconds: promptSeconds, Key.responseSeconds: responseSeconds, Key.isTruncated: isTruncated,
        ]
        if let firstSnapshotSeconds { metadata[Key.firstSnapshotSeconds] = firstSnapshotSeconds }
        return metadata
    }
}

extension GenerationStatistics {
    /// Adds the figures of a later turn of the same request.
    mutating func add(_ turn: GenerationStatistics) {
        if let first = turn.firstSnapshotSeconds, firstSnapshotSeconds == nil {
            firstSnapshotSeconds = promptSeconds + responseSeconds + first
        }
        promptTokens += turn.promptTokens
        cachedPromptTokens += turn.cachedPromptTokens
        responseTokens += turn.responseTokens
        forcedTokens += turn.forcedTokens
        promptSeconds += turn.promptSeconds
        responseSeconds += turn.responseSeconds
        // The answer is the last turn's: whether it was cut short.
        isTruncated = turn.isTruncated
    }
}
