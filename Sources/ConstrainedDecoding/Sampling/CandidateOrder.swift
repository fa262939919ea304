/// Puts a sampling chain's candidates most likely first, the lowest id first among equal logits:
/// the order of `sort { $0.logit > $1.logit || ($0.logit == $1.logit && $0.id < $1.id) }`, found
/// by a radix sort of one 64-bit key per candidate (the logit's bits, made to order as the logits
/// do, then the id), which takes a few passes over the candidates where a comparison sort of a
/// vocabulary's worth of them takes milliseconds. Its buffers are kept from one token to the next.
struct CandidateOrder: Sendable {
    private var keys: [UInt64] = []
    private var spare: [UInt64] = []
    private var counts = [Int](repeating: 0, count: 1 << CandidateOrder.digitBits)

    /// Bits of the key sorted per pass.
    private static let digitBits = 11

    /// Sorts `candidates` most likely first (lowest id first among equal logits; -0 and +0 are
    /// equal, as `==` has them, and come back as +0). Logits are never NaN here: the chain keeps
    /// only those at or above a finite floor.
    mutating func sort(_ candidates: inout [TokenCandidate]) {
        sort(&candidates, in: candidates.indices)
    }

    /// Sorts `candidates[range]` as ``sort(_:)`` sorts a whole array.
    mutating func sort(_ candidates: inout [TokenCandidate], in range: Range<Int>) {
        keys.removeAll(keepingCapacity: true)
        for candidate in candidates[range] { keys.append(Self.key(candidate)) }
        if keys.count <= Self.comparisonSortLimit {
            keys.sort()
        } else {
            radixSort()
        }
        for (index, key) in zip(range, keys) { candidates[index] = Self.candidate(key) }
    }

    /// Below this many keys, a comparison sort is quicker than the radix sort's passes over its
    /// counts.
    private static let comparisonSortLimit = 256

    /// Sorts `keys` in ascending order, a digit of `digitBits` bits per pass.
    private mutating func radixSort() {
        if spare.count < keys.count { spare = [UInt64](repeating: 0, count: keys.count) }
        let count = keys.count
        let mask = UInt64(1 << Self.digitBits - 1)
        var shift: UInt64 = 0
        while shift < 64 {
            let digit = shift
            let moved = keys.withUnsafeMutableBufferPointer { keys in
                spare.withUnsafeMutableBufferPointer { spare in
                    counts.withUnsafeMutableBufferPointer { counts in
                        counts.update(repeating: 0)
                        for index in 0..<count { counts[Int(keys[index] >> digit & mask)] += 1 }
                        // A digit that every key shares moves nothing.
                        if counts.contains(count) { return false }
                        var start = 0
                        for bucket in counts.indices {
                            let size = counts[bucket]
                            counts[bucket] = start
                            start += size
                        }
                        for index in 0..<count {
                            let key = keys[index]
                            let bucket = Int(key >> digit & mask)
                            spare[counts[bucket]] = key
                            counts[bucket] += 1
                        }
                        return true
                    }
                }
            }
            if moved { swap(&keys, &spare) }
            shift += UInt64(Self.digitBits)
        }
    }

    /// A key whose ascending order is the candidates' descending logits, then ascending ids.
    static func key(_ candidate: TokenCandidate) -> UInt64 {
        // + 0 makes -0 into +0, which `==` calls equal.
        let bits = (candidate.logit + 0).bitPattern
        let ascending = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
        return UInt64(~ascending) << 32 | UInt64(UInt32(bitPattern: candidate.id))
    }

    /// The candidate a key was made from.
    static func candidate(_ key: UInt64) -> TokenCandidate {
        let ascending = ~UInt32(truncatingIfNeeded: key >> 32)
        let bits = ascending & 0x8000_0000 != 0 ? ascending & 0x7FFF_FFFF : ~ascending
        return TokenCandidate(id: Int32(bitPattern: UInt32(truncatingIfNeeded: key)), logit: Float(bitPattern: bits))
    }
}
