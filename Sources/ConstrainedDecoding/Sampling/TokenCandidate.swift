import Foundation

/// A token still in the running after the mask, with its logit after the penalties.
public struct TokenCandidate: Sendable, Equatable {
    public var id: Int32
    public var logit: Float

    public init(id: Int32, logit: Float) {
        self.id = id
        self.logit = logit
    }
}

extension [TokenCandidate] {
    /// The probabilities of the candidates (most likely first) at temperature `temperature`.
    func probabilities(temperature: Double = 1) -> [Double] {
        guard let best = first?.logit else { return [] }
        let weights = map { exp(Double($0.logit - best) / temperature) }
        let total = weights.reduce(0, +)
        return weights.map { $0 / total }
    }
}
