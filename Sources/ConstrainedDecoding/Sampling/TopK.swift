/// Keeps the `k` most likely candidates (all of them when `k` is at most 0), as llama.cpp's
/// `top_k` does. Candidates come most likely first.
public struct TopK: Sendable, Equatable {
    public var k: Int

    public init(_ k: Int) {
        self.k = k
    }

    public func apply(to candidates: inout [TokenCandidate]) {
        var ranked = RankedCandidates(sorted: candidates)
        candidates.removeLast(candidates.count - kept(of: &ranked, within: candidates.count))
    }

    /// How many of the first `kept` candidates of `ranked` the stage keeps; they are sorted.
    func kept(of ranked: inout RankedCandidates, within kept: Int) -> Int {
        guard k > 0, kept > k else { return kept }
        ranked.sortHead(count: k)
        return k
    }
}
