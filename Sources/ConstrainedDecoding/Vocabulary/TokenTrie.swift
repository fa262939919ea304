/// The tokens of a vocabulary as a flat trie in depth-first order: node `i` reads byte
/// `bytes[i]` at depth `entries[i] & TokenTrie.depthMask` (from 1), its subtree ends before
/// `subtreeEnds[i]`, and the tokens spelled by the path to it are
/// `tokenIDs[tokenStarts[i]..<tokenStarts[i + 1]]`, those of its subtree
/// `tokenIDs[tokenStarts[i]..<tokenStarts[subtreeEnds[i]]]`. Tokens longer than
/// `depthMask` bytes are left out, so never allowed (no real vocabulary has one).
struct TokenTrie: Sendable {
    let bytes: [UInt8]
    /// Per node: its depth, ``plainBelowFlag``, and from bit ``groupsShift`` up the
    /// ``CharacterGroups`` of the characters below it (as bits), read in one load by mask walks.
    let entries: [UInt32]
    let subtreeEnds: [Int32]
    let tokenStarts: [Int32]
    let tokenIDs: [Int32]
    /// The bits of an entry that hold the depth; ``plainBelowFlag`` is set when every token of
    /// the node's subtree goes on from the node with plain text only
    /// (``VocabularyIndex/isPlainText(_:)``): a state that every plain-text character leads back to
    /// accepts the whole subtree.
    static let depthMask: UInt32 = 0x7FFF
    static let plainBelowFlag: UInt32 = 0x8000
    /// Where the groups below a node start in its entry. They are set for nodes with
    /// ``plainBelowFlag``, every group for those without children, so that walks treat these as
    /// they treat other nodes (taking their subtree whole changes nothing, and a branch on having
    /// children mispredicts).
    static let groupsShift: UInt32 = 16
    let maximumDepth: Int
    /// For each byte, the node at depth 1 that reads it, or -1.
    let rootNodes: [Int32]
    /// The trie's tokens, in a set as large as the vocabulary.
    let members: TokenBitset
    /// For an even sample of the trie's tokens (1,024 at most): the groups of a plain-text token's
    /// characters, or ``notPlainText``. A walk estimates from it how many tokens a state allows.
    let sampleGroups: [UInt32]
    static let notPlainText: UInt32 = 1 << 16

    /// A trie of the tokens whose ids pass `include`.
    init(tokens: [[UInt8]], include: (Int) -> Bool) {
        let order = tokens.indices.filter { include($0) && !tokens[$0].isEmpty && tokens[$0].count <= Int(Self.depthMask) }
            .sorted { tokens[$0].lexicographicallyPrecedes(tokens[$1]) }
        var bytes: [UInt8] = []
        var entries: [UInt32] = []
        var subtreeEnds: [Int32] = []
        var tokenStarts: [Int32] = []
        var tokenIDs: [Int32] = []
        // The path of open nodes, as node indices.
        var path: [Int] = []
        var previous: [UInt8] = []
        var maximumDepth = 0
        for id in order {
            let token = tokens[id]
            let shared = zip(previous, token).prefix { $0 == $1 }.count
            while path.count > shared {
                subtreeEnds[path.removeLast()] = Int32(bytes.count)
            }
            for depth in shared..<token.count {
                path.append(bytes.count)
                bytes.append(token[depth])
                entries.append(UInt32(depth + 1) | Self.plainBelowFlag)
                subtreeEnds.append(0)
                tokenStarts.append(Int32(tokenIDs.count))
            }
            let plainFrom = Self.plainSuffixes(token)
            for (depth, node) in path.enumerated() where !plainFrom[depth + 1] { entries[node] &= Self.depthMask }
            // Tokens sorted together with the same bytes share the node.
            tokenIDs.append(Int32(id))
            maximumDepth = max(maximumDepth, token.count)
            previous = token
        }
        while let node = path.popLast() { subtreeEnds[node] = Int32(bytes.count) }
        tokenStarts.append(Int32(tokenIDs.count))
        self.bytes = bytes
        self.subtreeEnds = subtreeEnds
        self.tokenStarts = tokenStarts
        self.tokenIDs = tokenIDs
        self.maximumDepth = maximumDepth
        var rootNodes = [Int32](repeating: -1, count: 256)
        for (node, entry) in entries.enumerated() where entry & Self.depthMask == 1 { rootNodes[Int(bytes[node])] = Int32(node) }
        self.rootNodes = rootNodes
        // Children follow their parent, each after the previous one's subtree; from the last node
        // back, a node's children are summarized before it.
        var groupsBelow = [UInt16](repeating: 0, count: bytes.count)
        for node in stride(from: bytes.count - 1, through: 0, by: -1) {
            var child = node + 1
            var below: UInt16 = 0
            while child < Int(subtreeEnds[node]) {
                below |= groupsBelow[child] | CharacterGroups.groups(of: CollectionOfOne(bytes[child]))
                child = Int(subtreeEnds[child])
            }
            groupsBelow[node] = below
            if entries[node] & Self.plainBelowFlag != 0 { entries[node] |= UInt32(below == 0 ? UInt16.max : below) << Self.groupsShift }
        }
        self.entries = entries
        var members = TokenBitset(capacity: tokens.count)
        for id in order { members.insert(Int32(id)) }
        self.members = members
        sampleGroups = stride(from: 0, to: order.count, by: max(order.count / 1024, 1)).map { index in
            let token = tokens[order[index]]
            return VocabularyIndex.isPlainText(token) ? UInt32(CharacterGroups.groups(of: token)) : Self.notPlainText
        }
    }

    var nodeCount: Int { bytes.count }

    /// The trie's arrays, read in place.
    struct Tables {
        let bytes: UnsafeBufferPointer<UInt8>
        let entries: UnsafeBufferPointer<UInt32>
        let subtreeEnds: UnsafeBufferPointer<Int32>
        let tokenStarts: UnsafeBufferPointer<Int32>
        let tokenIDs: UnsafeBufferPointer<Int32>
    }

    /// Calls `body` with the trie's arrays, read in place.
    func withTables<Result>(_ body: (Tables) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { bytes in
            entries.withUnsafeBufferPointer { entries in
                subtreeEnds.withUnsafeBufferPointer { ends in
                    tokenStarts.withUnsafeBufferPointer { starts in
                        tokenIDs.withUnsafeBufferPointer { ids in
                            body(Tables(bytes: bytes, entries: entries, subtreeEnds: ends, tokenStarts: starts, tokenIDs: ids))
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with each token that `bytes` starts with (spelt by a prefix of them).
    func forEachToken(startingWith bytes: some Collection<UInt8>, _ body: (Int32) -> Void) {
        var node = -1
        for byte in bytes {
            // The child of `node` that reads `byte`: children follow their parent, each after
            // the previous one's subtree.
            var child = node < 0 ? Int(rootNodes[Int(byte)]) : node + 1
            let end = node < 0 ? child + 1 : Int(subtreeEnds[node])
            while child >= 0, child < end, self.bytes[child] != byte { child = Int(subtreeEnds[child]) }
            guard child >= 0, child < end else { return }
            node = child
            for index in Int(tokenStarts[node])..<Int(tokenStarts[node + 1]) { body(tokenIDs[index]) }
        }
    }

    /// For each offset of `token` (and its end), whether the bytes from there are plain text.
    private static func plainSuffixes(_ token: [UInt8]) -> [Bool] {
        var plain = [Bool](repeating: false, count: token.count + 1)
        plain[token.count] = true
        for start in stride(from: token.count - 1, through: 0, by: -1) {
            let length = Self.characterLength(token[start])
            guard length > 0, start + length <= token.count, plain[start + length] else { continue }
            plain[start] = VocabularyIndex.isPlainText(Array(token[start..<start + length]))
        }
        return plain
    }

    /// The length of the UTF-8 character that `lead` starts, 0 when it cannot start one.
    private static func characterLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 0
        }
    }
}
