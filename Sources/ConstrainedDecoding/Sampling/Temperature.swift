/// The last stage of a ``SamplingChain``: the candidates' logits divided by the temperature, and
/// one of them drawn from the softmax of the result. Candidates come most likely first.
public struct Temperature: Sendable, Equatable {
    public var value: Double

    public init(_ value: Double) {
        self.value = value
    }

    /// The candidate drawn with the uniform number `unit` (in [0, 1)).
    public func draw(from candidates: [TokenCandidate], unit: Double) -> Int32? {
        var ranked = RankedCandidates(sorted: candidates)
        return draw(from: &ranked, within: candidates.count, unit: unit)
    }

    /// The candidate drawn with `unit` among the first `kept` of `ranked`.
    func draw(from ranked: inout RankedCandidates, within kept: Int, unit: Double) -> Int32? {
        guard kept > 0 else { return nil }
        let total = ranked.total(of: kept, temperature: value)
        var running = 0.0
        for index in 0..<kept {
            running += ranked.weight(at: index, temperature: value) / total
            if unit < running { return ranked[index].id }
        }
        return ranked[kept - 1].id
    }
}
