/// Keeps the most likely candidates whose probabilities add up to `p` (the one that reaches it
/// included), as llama.cpp's `top_p` does. Candidates come most likely first.
public struct TopP: Sendable, Equatable {
    public var p: Double

    public init(_ p: Double) {
        self.p = p
    }

    public func apply(to candidates: inout [TokenCandidate]) {
        RankedCandidates.truncate(&candidates) { kept(of: &$0, within: $1) }
    }

    /// How many of the first `kept` candidates of `ranked` the stage keeps; they are sorted.
    func kept(of ranked: inout RankedCandidates, within kept: Int) -> Int {
        guard p < 1, kept > 0 else { return kept }
        let total = ranked.total(of: kept, temperature: 1)
        var sum = 0.0
        var index = 0
        while index < kept {
            sum += ranked.weight(at: index, temperature: 1) / total
            index += 1
            if sum >= p { break }
        }
        return index
    }
}
