/// The first stage of a ``SamplingChain``: fixed amounts added to chosen tokens' logits (OpenAI's
/// and llama.cpp's `logit_bias`). Ids outside the vocabulary are ignored.
public struct LogitBias: Sendable, Equatable {
    /// The amount added to each token's logit, by id.
    public var amounts: [Int32: Float]

    public init(_ amounts: [Int32: Float]) {
        self.amounts = amounts
    }

    public func apply(to logits: UnsafeMutableBufferPointer<Float>) {
        for (token, amount) in amounts where token >= 0 && Int(token) < logits.count { logits[Int(token)] += amount }
    }
}
