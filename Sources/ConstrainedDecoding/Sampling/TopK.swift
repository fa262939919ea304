/// Keeps the `k` most likely candidates (all of them when `k` is at most 0), as llama.cpp's
/// `top_k` does. Candidates come most likely first.
public struct TopK: Sendable, Equatable {
    public var k: Int

    public init(_ k: Int) {
        self.k = k
    }

    public func apply(to candidates: inout [TokenCandidate]) {
        guard k > 0, candidates.count > k else { return }
        candidates.removeLast(candidates.count - k)
    }
}
