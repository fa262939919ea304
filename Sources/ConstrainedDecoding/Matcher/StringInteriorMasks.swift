/// The masks of string interiors (``LazyDFA/stringInterior(_:)``) without the tokens that hold a
/// quote, by interior: what every state with that interior allows of the tokens whose reading
/// stays inside the string. A state of a `pattern` or `format` string in a new place (another
/// member, another item, another definition that calls the same contents) then walks only the
/// tokens with a quote, instead of the whole trie.
struct StringInteriorMasks: ~Copyable {
    /// Per interior: the index of its bitset in ``bitsets`` (in masks), or -1.
    private var slots = ScratchBuffer<Int32>()
    private var bitsets: ScratchBuffer<UInt64>
    private let byteLimit: Int

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
        // Room for the limit at once, as in ``MaskCache``: pages are provided as masks fill them.
        bitsets = ScratchBuffer(capacity: byteLimit / MemoryLayout<UInt64>.stride)
    }

    /// The bytes the kept masks take.
    var byteCount: Int { bitsets.count * 8 }

    /// Whether a mask of `interior` is kept.
    func contains(_ interior: Int32) -> Bool {
        let index = Int(interior)
        return index < slots.count && slots[index] >= 0
    }

    /// Whether a mask like `mask` can still be kept (``store(_:mask:removing:)``).
    func hasRoom(for mask: TokenBitset) -> Bool {
        byteCount + mask.words.count * 8 <= byteLimit
    }

    /// Sets `mask` to the kept mask of `interior`; `false` when there is none.
    func restore(_ interior: Int32, into mask: inout TokenBitset) -> Bool {
        let index = Int(interior)
        guard index < slots.count, slots[index] >= 0 else { return false }
        let wordCount = mask.words.count
        let from = bitsets.base + Int(slots[index]) * wordCount
        mask.withWords { words in
            guard let to = words.baseAddress else { return }
            to.update(from: from, count: wordCount)
        }
        return true
    }

    /// Keeps `mask`, less the tokens of `quoted`, as the mask of `interior`; nothing once the
    /// kept masks reach the byte limit (later states walk the whole trie, as without them).
    mutating func store(_ interior: Int32, mask: TokenBitset, removing quoted: TokenBitset) {
        let wordCount = mask.words.count
        guard byteCount + wordCount * 8 <= byteLimit else { return }
        let index = Int(interior)
        slots.extend(to: index + 1, with: -1)
        guard slots[index] < 0 else { return }
        slots[index] = Int32(bitsets.count / max(wordCount, 1))
        mask.words.withUnsafeBufferPointer { words in
            quoted.words.withUnsafeBufferPointer { quotedWords in
                for word in 0..<wordCount { bitsets.append(words[word] & ~quotedWords[word]) }
            }
        }
    }
}
