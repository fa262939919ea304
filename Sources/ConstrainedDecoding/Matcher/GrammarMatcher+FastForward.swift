extension GrammarMatcher {
    /// How many trailing tokens of a forced run are looked at for one that a longer token of the
    /// vocabulary could cross.
    static let fastForwardLookback = 4

    /// Reads and returns the tokens of the text the grammar forces from here that the model's
    /// tokenizer writes alike whatever follows: the forced text is tokenized after the last token
    /// written (`previous`, so that its first token is the one the tokenizer would write there),
    /// and its last tokens are held back while some token of the vocabulary spells their end and
    /// then goes on with bytes the grammar allows next. The model writes the boundary itself,
    /// under the mask, as it would without the fast-forward: a lone `}` is never forced where the
    /// tokenizer writes `},`.
    ///
    /// Returns an empty array, reading nothing, when nothing is forced, when every forced token
    /// is held back, or when the tokenizer does not spell the forced text exactly.
    ///
    /// - Parameters:
    ///   - previous: The last token of the text so far (the prompt's last token at the start of
    ///     an answer), or `nil`.
    ///   - tokenize: The tokenizer, on text without special tokens.
    public func fastForwardTokens(after previous: Int32?, tokenize: (String) -> [Int32]) -> [Int32] {
        guard let vocabulary else { return [] }
        var forced = forcedBytes()
        // Only whole characters are tokenized; a character split by a choice is left to the model.
        while !forced.isEmpty, String(validating: forced, as: UTF8.self) == nil { forced.removeLast() }
        guard !forced.isEmpty else { return [] }
        // Written after the previous token, when the tokenizer keeps that token whole there.
        var before: [UInt8] = []
        var tokens: [Int32] = []
        if let previous, previous >= 0, Int(previous) < vocabulary.count, !vocabulary.specialTokens.contains(previous),
            let text = String(validating: vocabulary.tokens[Int(previous)] + forced, as: UTF8.self)
        {
            let joined = tokenize(text)
            if joined.first == previous {
                before = vocabulary.tokens[Int(previous)]
                tokens = Array(joined.dropFirst())
            }
        }
        func written(_ text: [UInt8]) -> [Int32] {
            let tokens = tokenize(String(decoding: before + text, as: UTF8.self))
            return before.isEmpty ? tokens : Array(tokens.dropFirst())
        }
        if before.isEmpty { tokens = written(forced) }
        guard spell(tokens, exactly: forced, in: vocabulary) else { return [] }
        for (index, token) in tokens.enumerated() where !advance(token: token) {
            rollback(index)
            return []
        }
        let held = max(heldBackCount(of: tokens, in: vocabulary), splitCount(of: tokens, forced: forced, written: written))
        rollback(held)
        tokens.removeLast(held)
        return tokens
    }

    /// Characters that stand for the text after the forced text when it starts with a character
    /// outside ASCII: a letter, a letter without case, punctuation and a symbol.
    private static let representativeCharacters: [[UInt8]] = ["é", "中", "—", "€"].map { Array($0.utf8) }

    /// How many of the last `tokens` the tokenizer writes otherwise when one more character
    /// follows them (`written` tokenizes as the forced text was): pre-tokenizers split text by
    /// the kind of the next character, as a run of spaces gives its last one to the word after
    /// it. Each ASCII character the grammar allows next is tried, and one character of each kind
    /// beyond ASCII.
    private func splitCount(of tokens: [Int32], forced: [UInt8], written: ([UInt8]) -> [Int32]) -> Int {
        var held = 0
        var candidates: [[UInt8]] = []
        for byte in 0...127 as ClosedRange<UInt8> where canAdvance(bytes: CollectionOfOne(byte)) { candidates.append([byte]) }
        for character in Self.representativeCharacters where canAdvance(bytes: character) { candidates.append(character) }
        for next in candidates {
            let longer = written(forced + next)
            let shared = zip(tokens, longer).prefix { $0 == $1 }.count
            held = max(held, tokens.count - shared)
            if held == tokens.count { break }
        }
        return held
    }

    /// Whether `tokens` are ordinary tokens that spell `bytes`.
    private func spell(_ tokens: [Int32], exactly bytes: [UInt8], in vocabulary: Vocabulary) -> Bool {
        var position = 0
        for token in tokens {
            guard token >= 0, Int(token) < vocabulary.count, !vocabulary.specialTokens.contains(token) else { return false }
            let spelling = vocabulary.tokens[Int(token)]
            guard position + spelling.count <= bytes.count, bytes[position..<position + spelling.count].elementsEqual(spelling) else {
                return false
            }
            position += spelling.count
        }
        return position == bytes.count
    }

    /// How many of the last `tokens`, just read, a longer token could cross: the fewest that
    /// cover the longest end of their text (within the last ``fastForwardLookback`` tokens) that
    /// some token of the vocabulary spells and then goes on with bytes allowed from here.
    private func heldBackCount(of tokens: [Int32], in vocabulary: Vocabulary) -> Int {
        let lookedAt = tokens.suffix(Self.fastForwardLookback)
        var tail = lookedAt.flatMap { vocabulary.tokens[Int($0)] }
        let longest = index?.trie.maximumDepth ?? 0
        if tail.count > longest { tail.removeFirst(tail.count - longest) }
        for start in tail.indices where hasToken(extending: tail[start...]) {
            var covered = 0
            for (count, token) in lookedAt.reversed().enumerated() {
                covered += vocabulary.tokens[Int(token)].count
                if covered >= tail.count - start { return count + 1 }
            }
            return lookedAt.count
        }
        return 0
    }

    /// Whether some token of the vocabulary spells `prefix` and then goes on with at least one
    /// byte, all of whose following bytes may come next from here.
    func hasToken(extending prefix: ArraySlice<UInt8>) -> Bool {
        guard let trie = index?.trie, let first = prefix.first else { return false }
        var node = Int(trie.rootNodes[Int(first)])
        guard node >= 0 else { return false }
        for byte in prefix.dropFirst() {
            // The child of `node` that reads `byte`: children follow their parent, each after the
            // previous one's subtree.
            var child = node + 1
            let end = Int(trie.subtreeEnds[node])
            while child < end, trie.bytes[child] != byte { child = Int(trie.subtreeEnds[child]) }
            guard child < end else { return false }
            node = child
        }
        guard state >= 0 else { return false }
        let baseDepth = Int(trie.entries[node] & TokenTrie.depthMask)
        // The states along the path below `node`, by depth below it.
        var states: [Int32] = [state]
        var current = node + 1
        let end = Int(trie.subtreeEnds[node])
        while current < end {
            let depth = Int(trie.entries[current] & TokenTrie.depthMask) - baseDepth
            states.removeLast(states.count - depth)
            let next = automaton.dfa.next(states[depth - 1], trie.bytes[current])
            guard next >= 0 else {
                current = Int(trie.subtreeEnds[current])
                continue
            }
            if trie.tokenStarts[current] < trie.tokenStarts[current + 1] { return true }
            states.append(next)
            current += 1
        }
        return false
    }
}
