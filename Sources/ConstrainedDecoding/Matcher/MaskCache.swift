/// The token masks a matcher has computed, by automaton state, kept small: a state's mask is the
/// plain-text tokens up to some length (when its characters are only counted) plus a short list
/// of other allowed tokens, or the whole bitset when the list would be long.
struct MaskCache: ~Copyable {
    /// A plain-text length meaning that plain text was not settled by length.
    static let noPlainText: Int32 = -1
    /// The longest list of token ids kept; masks with more are kept whole. A list this long takes
    /// 4 KB, a fifth of a whole mask over a vocabulary of 150,000 tokens, and restores in about
    /// the time a whole one is copied.
    static let listLimit = 1024

    struct Entry {
        var plainLength: Int32
        var listStart: Int32
        var listCount: Int32
        /// Index of the whole bitset in ``bitsets`` (in masks), -1 for a list, or ``none``.
        var bitset: Int32

        /// No mask is cached.
        static let none = Entry(plainLength: 0, listStart: 0, listCount: 0, bitset: -2)
    }

    private var entries = ScratchBuffer<Entry>()
    private var lists = ScratchBuffer<Int32>()
    private var bitsets: ScratchBuffer<UInt64>
    private let byteLimit: Int

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
        // Room for the limit at once: address space, whose pages the system provides as masks
        // fill them, so that no mask pays for copying all the others to a larger buffer.
        bitsets = ScratchBuffer(capacity: byteLimit / MemoryLayout<UInt64>.stride)
    }

    /// The bytes the kept masks take.
    var byteCount: Int { lists.count * 4 + bitsets.count * 8 }

    /// Sets `mask` to the cached mask of `state`; `false` when there is none.
    func restore(_ state: Int32, into mask: inout TokenBitset, index: VocabularyIndex) -> Bool {
        let slot = Int(state)
        guard slot < entries.count else { return false }
        let entry = entries[slot]
        if entry.bitset == Entry.none.bitset { return false }
        if entry.bitset >= 0 {
            let wordCount = mask.words.count
            let from = bitsets.base + Int(entry.bitset) * wordCount
            mask.withWords { words in
                guard let to = words.baseAddress else { return }
                to.update(from: from, count: wordCount)
            }
            return true
        }
        if entry.plainLength == Self.noPlainText {
            mask.removeAll()
        } else {
            index.setPlainTextTokens(upTo: Int(entry.plainLength), in: &mask)
        }
        let ids = lists.base
        mask.withWords { words in
            for position in Int(entry.listStart)..<Int(entry.listStart + entry.listCount) {
                let id = Int(ids[position])
                words[id >> 6] |= 1 << UInt64(id & 63)
            }
        }
        return true
    }

    /// Keeps the mask of `state`: `plainLength` and the other ids `list`, or when `list` is `nil`
    /// the whole of `mask`.
    mutating func store(_ state: Int32, plainLength: Int32, list: UnsafeBufferPointer<Int32>?, mask: TokenBitset) {
        let added = list.map { $0.count * 4 } ?? mask.words.count * 8
        if byteCount + added > byteLimit {
            entries.removeAll()
            lists.removeAll()
            bitsets.removeAll()
        }
        let index = Int(state)
        entries.extend(to: index + 1, with: .none)
        if let list {
            entries[index] = Entry(plainLength: plainLength, listStart: Int32(lists.count), listCount: Int32(list.count), bitset: -1)
            lists.append(contentsOf: list)
        } else {
            let slot = bitsets.count / max(mask.words.count, 1)
            entries[index] = Entry(plainLength: Self.noPlainText, listStart: 0, listCount: 0, bitset: Int32(slot))
            mask.words.withUnsafeBufferPointer { bitsets.append(contentsOf: $0) }
        }
    }
}
