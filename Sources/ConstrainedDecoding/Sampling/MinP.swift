import Foundation

/// Keeps the candidates whose probability is at least `p` times the most likely one's, as
/// llama.cpp's `min_p` does. Candidates come most likely first.
public struct MinP: Sendable, Equatable {
    public var p: Double

    public init(_ p: Double) {
        self.p = p
    }

    public func apply(to candidates: inout [TokenCandidate]) {
        guard p > 0, let best = candidates.first?.logit else { return }
        let floor = Double(best) + log(p)
        candidates.removeAll { Double($0.logit) < floor }
    }
}
