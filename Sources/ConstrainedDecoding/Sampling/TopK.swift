/// Keeps the `k` most likely candidates (all of them when `k` is at most 0), as llama.cpp's
/// `top_k` does. Candidates come most likely first.
public struct TopK: Sendable, Equatable {
    public var k: Int

    public init(_ k: Int) {
        self.k = k
    }

    public func apply(to candidates: inout [TokenCandidate]) {
        RankedCandidates.truncate(&candidates) { kept(of: &$0, within: $1) }
    }

    /// How many of the first `kept` candidates of `ranked` the stage keeps; they are sorted.
    func kept(of ranked: inout RankedCandidates, within kept: Int) -> Int {
        guard k > 0, kept > k else { return kept }
        ranked.sortHead(count: k)
        return k
    }
}
