/// The last stage of a ``SamplingChain``: the candidates' logits divided by the temperature, and
/// one of them drawn from the softmax of the result. Candidates come most likely first.
public struct Temperature: Sendable, Equatable {
    public var value: Double

    public init(_ value: Double) {
        self.value = value
    }

    /// The candidate drawn with the uniform number `unit` (in [0, 1)).
    public func draw(from candidates: [TokenCandidate], unit: Double) -> Int32? {
        let probabilities = candidates.probabilities(temperature: value)
        var running = 0.0
        for (candidate, probability) in zip(candidates, probabilities) {
            running += probability
            if unit < running { return candidate.id }
        }
        return candidates.last?.id
    }
}
