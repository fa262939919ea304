/// llama.cpp's `repeat_penalty`: every token in the window (the last tokens of the context) has
/// a positive logit divided by the penalty and a negative one multiplied by it, however often it
/// is there.
public struct RepetitionPenalty: Sendable, Equatable {
    /// Above 1 makes repeats less likely; 1 does nothing.
    public var penalty: Float

    public init(_ penalty: Float) {
        self.penalty = penalty
    }

    public func apply(to logits: UnsafeMutableBufferPointer<Float>, window: ArraySlice<Int32>) {
        guard penalty != 1 else { return }
        for token in Set(window) where token >= 0 && Int(token) < logits.count {
            let logit = logits[Int(token)]
            logits[Int(token)] = logit <= 0 ? logit * penalty : logit / penalty
        }
    }
}
