/// Matching without regard to case.
extension CodePointSet {
    /// The most scalars a set may hold for its letters to be folded one by one.
    private static let foldingLimit = 4096

    /// The set with the other case of each letter it holds (where that case is one scalar), for
    /// matching without regard to case; `nil` for a larger set (a negated class) in which an
    /// ASCII letter's other case is missing, which cannot be folded here.
    var addingCaseVariants: CodePointSet? {
        let count = ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 }
        guard count <= Self.foldingLimit else {
            for upper: UInt32 in 0x41...0x5A where contains(upper) != contains(upper + 0x20) { return nil }
            return self
        }
        var variants: [ClosedRange<UInt32>] = []
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping] {
                    let mapped = mapping.unicodeScalars
                    if mapped.count == 1, let other = mapped.first?.value, other != value { variants.append(other...other) }
                }
            }
        }
        return union(CodePointSet(variants))
    }
}

extension RegexNode {
    /// The node matching without regard to case; `nil` where a set cannot be folded
    /// (``CodePointSet/addingCaseVariants``).
    var ignoringCase: RegexNode? {
        switch self {
        case .empty, .startAnchor, .endAnchor: return self
        case .set(let set): return set.addingCaseVariants.map(RegexNode.set)
        case .sequence(let items):
            let folded = items.compactMap(\.ignoringCase)
            return folded.count == items.count ? .sequence(folded) : nil
        case .alternation(let items):
            let folded = items.compactMap(\.ignoringCase)
            return folded.count == items.count ? .alternation(folded) : nil
        case .repetition(let node, let minimum, let maximum):
            return node.ignoringCase.map { .repetition($0, minimum: minimum, maximum: maximum) }
        }
    }
}
