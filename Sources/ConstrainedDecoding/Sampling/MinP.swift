import Foundation

/// Keeps the candidates whose probability is at least `p` times the most likely one's, as
/// llama.cpp's `min_p` does. Candidates come most likely first.
public struct MinP: Sendable, Equatable {
    public var p: Double

    public init(_ p: Double) {
        self.p = p
    }

    public func apply(to candidates: inout [TokenCandidate]) {
        RankedCandidates.truncate(&candidates) { kept(of: &$0, within: $1) }
    }

    /// How many of the first `kept` candidates of `ranked` the stage keeps; they are sorted.
    func kept(of ranked: inout RankedCandidates, within kept: Int) -> Int {
        guard p > 0, kept > 0 else { return kept }
        let floor = Double(ranked.top) + log(p)
        // Every logit whose double is at or above the floor is at or above this float.
        ranked.sortHead(downTo: Float(floor).nextDown)
        var index = 0
        while index < min(kept, ranked.sortedCount), Double(ranked[index].logit) >= floor { index += 1 }
        return index
    }
}
