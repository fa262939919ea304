/// A set of Unicode scalar values, as sorted, disjoint, non-adjacent ranges. Surrogates are never
/// members.
struct CodePointSet: Hashable, Sendable {
    private(set) var ranges: [ClosedRange<UInt32>]

    static let all = CodePointSet([0...0xD7FF, 0xE000...0x10FFFF])
    static let empty = CodePointSet([])

    init(_ ranges: [ClosedRange<UInt32>]) {
        var sorted = ranges.flatMap(Self.withoutSurrogates).sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        sorted = merged
        self.ranges = sorted
    }

    init(_ scalar: UInt32) {
        self.init([scalar...scalar])
    }

    private static func withoutSurrogates(_ range: ClosedRange<UInt32>) -> [ClosedRange<UInt32>] {
        let upper = min(range.upperBound, 0x10FFFF)
        guard range.lowerBound <= upper else { return [] }
        var parts: [ClosedRange<UInt32>] = []
        if range.lowerBound < 0xD800 { parts.append(range.lowerBound...min(upper, 0xD7FF)) }
        if upper > 0xDFFF { parts.append(max(range.lowerBound, 0xE000)...upper) }
        return parts
    }

    var isEmpty: Bool { ranges.isEmpty }

    func union(_ other: CodePointSet) -> CodePointSet {
        CodePointSet(ranges + other.ranges)
    }

    var inverted: CodePointSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= 0x10FFFF { result.append(next...0x10FFFF) }
        return CodePointSet(result)
    }

    func subtracting(_ other: CodePointSet) -> CodePointSet {
        intersection(other.inverted)
    }

    func intersection(_ other: CodePointSet) -> CodePointSet {
        var result: [ClosedRange<UInt32>] = []
        var i = 0
        var j = 0
        while i < ranges.count, j < other.ranges.count {
            let low = max(ranges[i].lowerBound, other.ranges[j].lowerBound)
            let high = min(ranges[i].upperBound, other.ranges[j].upperBound)
            if low <= high { result.append(low...high) }
            if ranges[i].upperBound < other.ranges[j].upperBound { i += 1 } else { j += 1 }
        }
        return CodePointSet(result)
    }

    func contains(_ scalar: UInt32) -> Bool {
        ranges.contains { $0.contains(scalar) }
    }

    /// The set with both cases of every ASCII letter in it.
    var caseInsensitive: CodePointSet {
        var extra: [ClosedRange<UInt32>] = []
        for letter in UInt32(0x41)...0x5A where contains(letter) || contains(letter + 0x20) {
            extra.append(letter...letter)
            extra.append((letter + 0x20)...(letter + 0x20))
        }
        return union(CodePointSet(extra))
    }
}
