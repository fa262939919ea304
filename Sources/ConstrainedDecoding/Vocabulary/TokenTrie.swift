/// The tokens of a vocabulary as a flat trie in depth-first order: node `i` reads byte
/// `bytes[i]` at depth `depths[i]` (from 1), its subtree ends before `subtreeEnds[i]`, and the
/// tokens spelled by the path to it are `tokenIDs[tokenStarts[i]..<tokenStarts[i + 1]]`.
struct TokenTrie: Sendable {
    let bytes: [UInt8]
    let depths: [UInt16]
    let subtreeEnds: [Int32]
    let tokenStarts: [Int32]
    let tokenIDs: [Int32]
    let maximumDepth: Int
    /// For each byte, the node at depth 1 that reads it, or -1.
    let rootNodes: [Int32]

    /// A trie of the tokens whose ids pass `include`.
    init(tokens: [[UInt8]], include: (Int) -> Bool) {
        let order = tokens.indices.filter { include($0) && !tokens[$0].isEmpty }
            .sorted { tokens[$0].lexicographicallyPrecedes(tokens[$1]) }
        var bytes: [UInt8] = []
        var depths: [UInt16] = []
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
                depths.append(UInt16(depth + 1))
                subtreeEnds.append(0)
                tokenStarts.append(Int32(tokenIDs.count))
            }
            // Tokens sorted together with the same bytes share the node.
            tokenIDs.append(Int32(id))
            maximumDepth = max(maximumDepth, token.count)
            previous = token
        }
        while let node = path.popLast() { subtreeEnds[node] = Int32(bytes.count) }
        tokenStarts.append(Int32(tokenIDs.count))
        self.bytes = bytes
        self.depths = depths
        self.subtreeEnds = subtreeEnds
        self.tokenStarts = tokenStarts
        self.tokenIDs = tokenIDs
        self.maximumDepth = maximumDepth
        var rootNodes = [Int32](repeating: -1, count: 256)
        for (node, depth) in depths.enumerated() where depth == 1 { rootNodes[Int(bytes[node])] = Int32(node) }
        self.rootNodes = rootNodes
    }

    var nodeCount: Int { bytes.count }
}
