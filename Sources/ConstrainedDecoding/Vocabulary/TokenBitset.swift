/// A set of token ids as a bitset of 64-bit words: bit `id % 64` of word `id / 64`.
public struct TokenBitset: Sendable, Equatable {
    /// The words of the set.
    public private(set) var words: [UInt64]
    /// How many ids the set can hold.
    public let capacity: Int

    /// An empty set for ids below `capacity`.
    public init(capacity: Int) {
        self.capacity = capacity
        words = Array(repeating: 0, count: (capacity + 63) / 64)
    }

    /// Whether `id` is in the set.
    @inline(__always)
    public func contains(_ id: Int32) -> Bool {
        let index = Int(id)
        guard index >= 0, index < capacity else { return false }
        return words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Adds `id`.
    @inline(__always)
    public mutating func insert(_ id: Int32) {
        words[Int(id) >> 6] |= 1 << UInt64(Int(id) & 63)
    }

    /// Removes `id`.
    @inline(__always)
    public mutating func remove(_ id: Int32) {
        words[Int(id) >> 6] &= ~(1 << UInt64(Int(id) & 63))
    }

    /// Removes every id.
    public mutating func removeAll() {
        words.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            base.update(repeating: 0, count: buffer.count)
        }
    }

    /// The number of ids in the set.
    public var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// The ids in the set, in order.
    public var ids: [Int32] {
        var result: [Int32] = []
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                result.append(Int32(index * 64 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        return result
    }

    /// Calls `body` with each id in the set, in increasing order, without allocating.
    public func forEachID(_ body: (Int32) -> Void) {
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                body(Int32(index * 64 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
    }

    /// Replaces the contents with `other`'s, without allocating.
    public mutating func assign(_ other: TokenBitset) {
        words.withUnsafeMutableBufferPointer { target in
            other.words.withUnsafeBufferPointer { source in
                guard let to = target.baseAddress, let from = source.baseAddress else { return }
                to.update(from: from, count: min(target.count, source.count))
            }
        }
    }

    /// Replaces the contents with the ids of `base` that are not in `excluded`, without
    /// allocating.
    mutating func assign(_ base: TokenBitset, subtracting excluded: TokenBitset) {
        words.withUnsafeMutableBufferPointer { target in
            base.words.withUnsafeBufferPointer { kept in
                excluded.words.withUnsafeBufferPointer { removed in
                    for index in 0..<min(target.count, kept.count, removed.count) {
                        target[index] = kept[index] & ~removed[index]
                    }
                }
            }
        }
    }

    /// Removes the ids of `other`.
    mutating func subtract(_ other: TokenBitset) {
        words.withUnsafeMutableBufferPointer { target in
            other.words.withUnsafeBufferPointer { source in
                for index in 0..<min(target.count, source.count) { target[index] &= ~source[index] }
            }
        }
    }

    /// Adds the ids of `other`.
    public mutating func formUnion(_ other: TokenBitset) {
        words.withUnsafeMutableBufferPointer { target in
            other.words.withUnsafeBufferPointer { source in
                for index in 0..<min(target.count, source.count) { target[index] |= source[index] }
            }
        }
    }

    /// Runs `body` with the words, for filling the set fast.
    mutating func withWords<Result>(_ body: (UnsafeMutableBufferPointer<UInt64>) -> Result) -> Result {
        words.withUnsafeMutableBufferPointer { body($0) }
    }
}
