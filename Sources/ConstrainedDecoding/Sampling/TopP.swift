/// Keeps the most likely candidates whose probabilities add up to `p` (the one that reaches it
/// included), as llama.cpp's `top_p` does. Candidates come most likely first.
public struct TopP: Sendable, Equatable {
    public var p: Double

    public init(_ p: Double) {
        self.p = p
    }

    public func apply(to candidates: inout [TokenCandidate]) {
        guard p < 1, !candidates.isEmpty else { return }
        var kept = 0
        var sum = 0.0
        for probability in candidates.probabilities() {
            sum += probability
            kept += 1
            if sum >= p { break }
        }
        candidates.removeLast(candidates.count - kept)
    }
}
