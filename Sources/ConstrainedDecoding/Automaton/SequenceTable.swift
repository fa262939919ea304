/// Sequences of integers stored end to end in one array, each numbered in the order it was
/// added, and found again by content without allocating (open addressing on a hash).
struct SequenceTable: ~Copyable {
    private(set) var pool = ScratchBuffer<Int32>()
    /// Sequence `i` is `pool[starts[i]..<starts[i + 1]]`.
    private(set) var starts = ScratchBuffer<Int32>()
    private var hashes = ScratchBuffer<Int>()
    /// Sequence numbers, or -1 for an empty slot; the count is a power of two.
    private var slots = ScratchBuffer<Int32>()

    init() {
        starts.append(0)
        slots.extend(to: 1024, with: -1)
    }

    var count: Int { hashes.count }

    /// The number of `sequence`, adding it when new.
    mutating func intern(_ sequence: UnsafeBufferPointer<Int32>) -> (id: Int32, isNew: Bool) {
        let hash = Self.hash(sequence)
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let id = slots[slot]
            if id < 0 { break }
            if hashes[Int(id)] == hash && equals(Int(id), sequence) { return (id, false) }
            slot = (slot + 1) & mask
        }
        let id = Int32(hashes.count)
        hashes.append(hash)
        pool.append(contentsOf: sequence)
        starts.append(Int32(pool.count))
        slots[slot] = id
        if hashes.count * 2 > slots.count { grow() }
        return (id, true)
    }

    private func equals(_ id: Int, _ sequence: UnsafeBufferPointer<Int32>) -> Bool {
        let start = Int(starts[id])
        guard Int(starts[id + 1]) - start == sequence.count else { return false }
        for index in 0..<sequence.count where pool[start + index] != sequence[index] { return false }
        return true
    }

    private mutating func grow() {
        let newCount = slots.count * 2
        slots.extend(to: newCount, with: -1)
        slots.elements.update(repeating: -1)
        let mask = newCount - 1
        for id in 0..<hashes.count {
            var slot = hashes[id] & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }

    private static func hash(_ sequence: UnsafeBufferPointer<Int32>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for element in sequence {
            hash = (hash ^ UInt64(UInt32(bitPattern: element))) &* 0x0000_0100_0000_01B3
        }
        hash ^= hash >> 29
        return Int(truncatingIfNeeded: hash & 0x7FFF_FFFF_FFFF_FFFF)
    }
}
