/// OpenAI's frequency and presence penalties: a token in the window (the last tokens of the
/// context) has `count * frequency + presence` taken off its logit, `count` being how often it is
/// there.
public struct FrequencyPresencePenalty: Sendable, Equatable {
    public var frequency: Float
    public var presence: Float

    public init(frequency: Float, presence: Float) {
        self.frequency = frequency
        self.presence = presence
    }

    public func apply(to logits: UnsafeMutableBufferPointer<Float>, window: ArraySlice<Int32>) {
        guard frequency != 0 || presence != 0 else { return }
        var counts: [Int32: Int] = [:]
        for token in window { counts[token, default: 0] += 1 }
        for (token, count) in counts where token >= 0 && Int(token) < logits.count {
            logits[Int(token)] -= Float(count) * frequency + presence
        }
    }
}
