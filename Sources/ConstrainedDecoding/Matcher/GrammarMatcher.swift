/// Follows one document through a grammar, byte by byte or token by token, and tells which
/// tokens may come next.
///
/// A matcher is not thread-safe: create one per generation from a shared ``CompiledGrammar``.
/// It starts with the automaton states and token masks that earlier matchers of the same grammar
/// and vocabulary built, and leaves its own to the next when it goes.
public final class GrammarMatcher {
    /// The automaton and masks, this matcher's alone until it goes.
    let automaton: MatcherAutomaton
    private let shelf: AutomatonShelf
    /// The vocabulary tokens are read from, if any.
    public let vocabulary: Vocabulary?
    /// The vocabulary's tables, read without copying the vocabulary.
    let index: VocabularyIndex?
    private let endTokens: [Int32]
    let checksUniqueness: Bool
    /// The bytes of each byte class of the automaton, when it checks uniqueness.
    let byteClassMembers: [ByteSet]
    /// What the searches of ``removeRepeats(from:index:)`` found for the current items.
    var uniquenessSearch = UniquenessSearch()
    private(set) var state: Int32
    /// The items so far of the array being read, when its items must be distinct.
    private(set) var tracker = UniquenessTracker()
    /// The state before each token or byte run that was accepted, for ``rollback(_:)``.
    private var history: [Int32] = []
    /// The tracker before each of them, when the grammar checks uniqueness.
    private var trackerHistory: [UniquenessTracker] = []
    /// The ids a mask walk added, up to ``MaskCache/listLimit``.
    private let walkIDs = UnsafeMutablePointer<Int32>.allocate(capacity: MaskCache.listLimit)
    private var terminated = false
    /// The walk's states, by trie depth.
    private var walkStates: [Int32] = []
    /// The fewest nodes of a subtree for which a walk finds out its state's
    /// ``LazyDFA/safeGroups(_:)``: a search costs about what a walk of some hundred nodes does.
    var groupSearchSubtree = 4096

    /// The most memory the masks cached by one matcher take, in bytes; beyond it the cache
    /// starts over.
    public static let maskCacheBytes = 32 << 20
    /// The most memory the quote-free masks of string interiors take, in bytes; beyond it, new
    /// interiors are walked whole at each new state, as other states are.
    public static let interiorMaskBytes = 16 << 20
    /// Whether computed masks are kept by state (not while precomputing the masks of interiors
    /// alone, whose states no document reaches).
    private var keepsMasks = true

    public init(grammar: CompiledGrammar, vocabulary: Vocabulary? = nil) {
        shelf = grammar.shelf
        automaton =
            grammar.shelf.take(over: vocabulary?.index)
            ?? MatcherAutomaton(grammar: grammar, vocabulary: vocabulary)
        self.vocabulary = vocabulary
        index = vocabulary?.index
        endTokens = vocabulary?.endTokens ?? []
        state = automaton.dfa.start
        checksUniqueness = automaton.dfa.checksUniqueness
        var members = [ByteSet](repeating: ByteSet(), count: checksUniqueness ? automaton.dfa.width : 0)
        for byte in 0...255 where checksUniqueness { members[Int(automaton.dfa.classOf[byte])].insert(UInt8(byte)) }
        byteClassMembers = members
        walkStates = Array(repeating: 0, count: (vocabulary?.index.trie.maximumDepth ?? 0) + 1)
    }

    deinit {
        walkIDs.deallocate()
        shelf.put(automaton)
    }

    /// Whether the text so far is a complete document.
    public var isAccepting: Bool { state >= 0 && automaton.dfa.isAccepting(state) }

    /// Whether any byte may follow the text so far (when not, the document is complete or dead).
    public var canContinue: Bool {
        guard !terminated, state >= 0 else { return false }
        return (0...255 as ClosedRange<UInt8>).contains { automaton.dfa.next(state, $0) >= 0 }
    }

    /// Whether the text so far ends inside a string whose characters the grammar leaves free:
    /// every plain-text character may come next, and each leads to a state of the same kind
    /// (free or only counted, as with `maxLength`). Not inside an `enum`, `const`, `pattern` or
    /// `format` value, a member name the schema lists, a number or the JSON structure.
    public var isInFreeText: Bool {
        guard !terminated, state >= 0 else { return false }
        return (automaton.dfa.plainTextRun(state) ?? 0) > 0
    }

    /// Whether the end-of-text token was accepted.
    public var isTerminated: Bool { terminated }

    /// How many automaton states have been built so far.
    public var automatonStateCount: Int { automaton.dfa.stateCount }

    /// Reads `bytes`; returns `false` and changes nothing when they cannot continue the document.
    @discardableResult
    public func advance(bytes: some Sequence<UInt8>) -> Bool {
        var following = tracker
        guard !terminated, let next = run(state, &following, bytes) else { return false }
        record(next, following)
        return true
    }

    /// Whether `bytes` can continue the document, without reading them.
    public func canAdvance(bytes: some Sequence<UInt8>) -> Bool {
        var following = tracker
        return !terminated && run(state, &following, bytes) != nil
    }

    /// Whether `bytes`, from the start, are a complete document. Does not change the matcher.
    public func accepts(document bytes: some Sequence<UInt8>) -> Bool {
        var fresh = UniquenessTracker()
        guard let end = run(automaton.dfa.start, &fresh, bytes) else { return false }
        return automaton.dfa.isAccepting(end)
    }

    /// Moves to `next`, keeping the current state for ``rollback(_:)``.
    private func record(_ next: Int32, _ following: UniquenessTracker) {
        history.append(state)
        state = next
        if checksUniqueness {
            trackerHistory.append(tracker)
            tracker = following
        }
    }

    func run(_ start: Int32, _ tracker: inout UniquenessTracker, _ bytes: some Sequence<UInt8>) -> Int32? {
        guard start >= 0 else { return nil }
        var current = start
        for byte in bytes {
            current = step(current, byte, &tracker)
            if current < 0 { return nil }
        }
        return current
    }

    /// The state after `byte`, or ``LazyDFA/dead``: the automaton's, less the arrays whose items
    /// must be distinct when the byte ends an item that repeats an earlier one.
    @inline(__always)
    func step(_ state: Int32, _ byte: UInt8, _ tracker: inout UniquenessTracker) -> Int32 {
        var next = automaton.dfa.next(state, byte)
        guard checksUniqueness, next >= 0 else { return next }
        if tracker.isActive, tracker.read(byte) == .repeated {
            next = automaton.dfa.withoutUniqueThreads(next)
            if next < 0 { return next }
        }
        if !automaton.dfa.hasUniqueThreads(next) {
            if tracker.isActive { tracker.stop() }
        } else if !tracker.isActive, byte == UInt8(ascii: "[") {
            tracker.start()
        }
        return next
    }

    /// Whether `token` may come next (end-of-text when the document is complete).
    public func canAdvance(token: Int32) -> Bool {
        guard let vocabulary, !terminated, Int(token) < vocabulary.count, token >= 0 else { return false }
        if vocabulary.isEnd(token) { return isAccepting }
        return reading(token, vocabulary) != nil
    }

    /// Reads `token`; returns `false` and changes nothing when it may not come next.
    @discardableResult
    public func advance(token: Int32) -> Bool {
        guard let vocabulary, !terminated, Int(token) < vocabulary.count, token >= 0 else { return false }
        if vocabulary.isEnd(token) {
            guard isAccepting else { return false }
            record(state, tracker)
            terminated = true
        } else {
            guard let (next, following) = reading(token, vocabulary) else { return false }
            record(next, following)
        }
        return true
    }

    /// The state and array items after `token` (not end-of-text), or `nil` when it may not come
    /// next: a special token, bytes the grammar refuses, or an item that can only repeat.
    private func reading(_ token: Int32, _ vocabulary: Vocabulary) -> (Int32, UniquenessTracker)? {
        if vocabulary.specialTokens.contains(token) { return nil }
        var following = tracker
        guard let next = run(state, &following, vocabulary.tokens[Int(token)]), canFinishItem(next, following) else { return nil }
        return (next, following)
    }

    /// Undoes the last `count` advances (tokens or byte runs).
    public func rollback(_ count: Int) {
        let steps = min(count, history.count)
        guard steps > 0 else { return }
        state = history[history.count - steps]
        history.removeLast(steps)
        if checksUniqueness {
            tracker = trackerHistory[trackerHistory.count - steps]
            trackerHistory.removeLast(steps)
        }
        terminated = false
    }

    /// Starts the document over.
    public func reset() {
        state = automaton.dfa.start
        history.removeAll()
        tracker.stop()
        trackerHistory.removeAll()
        terminated = false
    }

    /// The bytes the grammar leaves no choice about from here: the text that can be written
    /// without asking the model (empty when there is a choice, or the document may end).
    public func forcedBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        var current = state
        var following = tracker
        while current >= 0, !automaton.dfa.isAccepting(current), bytes.count < 4096 {
            var only: UInt8?
            for byte in 0...255 as ClosedRange<UInt8> where automaton.dfa.next(current, byte) >= 0 {
                if only != nil { return bytes }
                only = byte
            }
            guard let byte = only else { break }
            current = step(current, byte, &following)
            guard current >= 0 else { break }
            bytes.append(byte)
        }
        return bytes
    }

    /// Sets `mask` to the tokens that may come next.
    public func allowedTokens(into mask: inout TokenBitset) {
        guard let index else { return }
        guard !terminated, state >= 0 else {
            mask.removeAll()
            return
        }
        defer {
            if checksUniqueness, tracker.isActive, !tracker.items.isEmpty { removeRepeats(from: &mask, index: index) }
        }
        if automaton.masks.restore(state, into: &mask, index: index) { return }
        let plainLength: Int32
        var count: Int
        // Whether the mask is kept whole, not as its plain-text length and a list of others.
        var keptWhole = false
        let interior = automaton.dfa.stringInterior(state)
        if let interior, !automaton.interiors.contains(interior), automaton.interiors.hasRoom(for: mask) {
            // The tokens without a quote as at the first state with this interior, computed there
            // (where the states they lead to are built once for all such states).
            let representative = automaton.dfa.interiorRepresentative(interior)
            if representative != state { keepMask(at: representative, in: &mask, keepingState: false) }
        }
        if let interior, automaton.interiors.restore(interior, into: &mask) {
            // Inside a string whose interior was met before: the tokens without a quote as there,
            // and only those with one walked (by their rests where plain text loops).
            let loops = automaton.dfa.plainTextTarget(state) == state
            count = fill(&mask, trie: loops ? index.quoteTokenRests : index.quoteTokensTrie, complement: false)
            if let length = automaton.dfa.plainTextRun(state), let others = listOthers(in: mask, plainUpTo: length, index) {
                // Kept as small as where plain text settles the mask.
                plainLength = Int32(length)
                count = others
            } else {
                plainLength = MaskCache.noPlainText
                keptWhole = true
            }
        } else if let length = automaton.dfa.plainTextRun(state) {
            // Plain-text tokens are settled by their length; only the others are walked (by their
            // rests where plain text loops).
            index.setPlainTextTokens(upTo: length, in: &mask)
            plainLength = Int32(length)
            let loops = automaton.dfa.plainTextTarget(state) == state
            count = fill(&mask, trie: loops ? index.otherTokenRests : index.otherTokensTrie, complement: false)
        } else if let refused = automaton.dfa.plainTextRefusals(state) {
            // Plain text goes on but for a few characters: the plain-text tokens that hold none of
            // them are allowed; only the others are walked.
            index.setPlainTextTokens(upTo: index.longestPlainText, in: &mask)
            for byte in refused { mask.subtract(index.tokens(holding: byte)) }
            plainLength = MaskCache.noPlainText
            count = fill(&mask, trie: index.otherTokensTrie, complement: false)
            keptWhole = true
        } else {
            plainLength = MaskCache.noPlainText
            if allowsMost(of: index.trie) {
                mask.assign(index.trie.members)
                count = fill(&mask, trie: index.trie, complement: true)
                if count <= MaskCache.listLimit {
                    for (position, id) in mask.ids.enumerated() { walkIDs[position] = id }
                }
            } else {
                mask.removeAll()
                count = fill(&mask, trie: index.trie, complement: false)
            }
        }
        if let interior, !automaton.interiors.contains(interior) { automaton.interiors.store(interior, mask: mask, removing: index.quoteTokens) }
        if automaton.dfa.isAccepting(state) {
            for end in endTokens {
                mask.insert(end)
                if count < MaskCache.listLimit { walkIDs[count] = end }
                count += 1
            }
        }
        let list = !keptWhole && count <= MaskCache.listLimit ? UnsafeBufferPointer(start: walkIDs, count: count) : nil
        if keepsMasks { automaton.masks.store(state, plainLength: plainLength, list: list, mask: mask) }
    }

    /// When `mask` is the plain-text tokens of 1 to `length` characters and at most
    /// ``MaskCache/listLimit`` others, records those others in ``walkIDs`` and returns how many;
    /// otherwise `nil`.
    private func listOthers(in mask: TokenBitset, plainUpTo length: Int, _ index: VocabularyIndex) -> Int? {
        let sets = index.plainTextTokensOfLengthAtLeast
        let from = sets[min(length, 1)].words
        let beyond = sets[min(length + 1, sets.count - 1)].words
        var count = 0
        for (word, bits) in mask.words.enumerated() {
            let plain = length > 0 ? from[word] & ~beyond[word] : 0
            guard bits & plain == plain else { return nil }
            var others = bits & ~plain
            while others != 0 {
                guard count < MaskCache.listLimit else { return nil }
                walkIDs[count] = Int32(word * 64 + others.trailingZeroBitCount)
                count += 1
                others &= others - 1
            }
        }
        return count
    }

    /// Computes the mask of automaton state `other` as ``allowedTokens(into:)`` does there, and
    /// keeps it for later matchers, leaving the matcher where it was. With `keepingState` false,
    /// only what its string interior shares is kept (for states that no document reaches).
    func keepMask(at other: Int32, in mask: inout TokenBitset, keepingState: Bool = true) {
        let current = state
        state = other
        keepsMasks = keepingState
        allowedTokens(into: &mask)
        keepsMasks = true
        state = current
    }

    /// Whether the current state likely allows most tokens of `trie`: more than half of them
    /// start with a byte it allows, and more than half of its sample are made of characters of
    /// ``LazyDFA/safeGroups(_:)``. Then a walk starts from all of them and removes the refused
    /// ones. The first bytes, read from the start's row, settle most states at once.
    private func allowsMost(of trie: borrowing TokenTrie) -> Bool {
        // Most tokens hold an `e`: where it is refused, as outside strings, not most.
        guard automaton.dfa.next(state, UInt8(ascii: "e")) >= 0 else { return false }
        let row = automaton.dfa.rowBase + Int(state) * automaton.dfa.width
        let classOf = automaton.dfa.classOf
        let starting = trie.withTables { tables in
            var count = 0
            for first in 0..<256 where trie.rootNodes[first] >= 0 && row[Int(classOf[first])] >= 0 {
                let root = Int(trie.rootNodes[first])
                count += Int(tables.tokenStarts[Int(tables.subtreeEnds[root])] - tables.tokenStarts[root])
            }
            return count
        }
        guard starting * 2 > trie.tokenIDs.count else { return false }
        let safe = UInt32(automaton.dfa.safeGroups(state))
        guard safe != 0 else { return false }
        var allowed = 0
        for groups in trie.sampleGroups where groups & ~safe == 0 { allowed += 1 }
        return allowed * 2 > trie.sampleGroups.count
    }

    /// Adds the tokens of `trie` that may come next, or with `complement` removes from `mask` (the
    /// trie's tokens) those that may not: a walk of the trie from the current state, from each
    /// allowed first byte, that skips every subtree whose path is refused, and takes whole every
    /// plain-text subtree reached in a state that plain text loops on or whose characters cannot
    /// lead out of the grammar. Returns how many tokens of the trie are allowed, recording the
    /// first ``MaskCache/listLimit`` added in ``walkIDs``.
    @inline(__always)
    private func fill(_ mask: inout TokenBitset, trie: borrowing TokenTrie, complement: Bool) -> Int {
        let start = state
        _ = automaton.dfa.next(start, 0)  // the row of the start, read for every first byte below
        let walkIDs = self.walkIDs
        let listLimit = MaskCache.listLimit
        let width = automaton.dfa.width
        let classOf = automaton.dfa.classOf
        let rootNodes = trie.rootNodes
        var added = 0
        var removed = 0
        walkStates.withUnsafeMutableBufferPointer { states in
            states[0] = start
            mask.withWords { words in
                trie.withTables { trie in
                    var rows = automaton.dfa.rowBase
                    var info = automaton.dfa.walkInfoBase
                    for first in 0..<256 {
                        let root = Int(rootNodes[first])
                        guard root >= 0 else { continue }
                        guard rows[Int(start) &* width &+ Int(classOf[first])] >= 0 else {
                            if complement { removed += Self.remove(subtreeOf: root, trie, words) }
                            continue
                        }
                        var node = root
                        let end = Int(trie.subtreeEnds[root])
                        while node < end {
                            let entry = trie.entries[node]
                            let depth = Int(entry & TokenTrie.depthMask)
                            let parent = states[depth - 1]
                            let slot = Int(parent) &* width &+ Int(classOf[Int(trie.bytes[node])])
                            var next = rows[slot]
                            if next == LazyDFA.unknown {
                                automaton.dfa.computeRow(parent)
                                rows = automaton.dfa.rowBase
                                info = automaton.dfa.walkInfoBase
                                next = rows[slot]
                            }
                            if next < 0 {
                                if complement { removed += Self.remove(subtreeOf: node, trie, words) }
                                node = Int(trie.subtreeEnds[node])
                                continue
                            }
                            states[depth] = next
                            var following = node + 1
                            if entry & TokenTrie.plainBelowFlag != 0 {
                                let below = entry >> TokenTrie.groupsShift
                                if below & ~info[Int(next)].safeGroups == 0 {
                                    // No string of the characters below leads out of the grammar
                                    // from here (as where a thread outlives any plain text): the
                                    // whole subtree is allowed, none of its bytes read.
                                    following = Int(trie.subtreeEnds[node])
                                } else {
                                    var target = info[Int(next)].plainTarget
                                    // Worth finding out for subtrees of some size only: it may build
                                    // states, and moves the tables when it does.
                                    if target == LazyDFA.unknown && Int(trie.subtreeEnds[node]) - node > 16 {
                                        target = automaton.dfa.plainTextTarget(next) ?? LazyDFA.unknown
                                        rows = automaton.dfa.rowBase
                                        info = automaton.dfa.walkInfoBase
                                    }
                                    if target != next, info[Int(next)].safeGroups & LazyDFA.WalkInfo.knownGroups == 0,
                                        Int(trie.subtreeEnds[node]) - node > groupSearchSubtree
                                    {
                                        _ = automaton.dfa.safeGroups(next)
                                        rows = automaton.dfa.rowBase
                                        info = automaton.dfa.walkInfoBase
                                    }
                                    // Plain text loops here, or cannot leave the grammar from here.
                                    if target == next || below & ~info[Int(next)].safeGroups == 0 {
                                        following = Int(trie.subtreeEnds[node])
                                    }
                                }
                            }
                            if !complement {
                                var token = Int(trie.tokenStarts[node])
                                let last = Int(trie.tokenStarts[following])
                                while token < last {
                                    let id = trie.tokenIDs[token]
                                    words[Int(id) >> 6] |= 1 << UInt64(id & 63)
                                    if added < listLimit { walkIDs[added] = id }
                                    added += 1
                                    token += 1
                                }
                            }
                            node = following
                        }
                    }
                }
            }
        }
        return complement ? trie.tokenIDs.count - removed : added
    }


    /// Removes the tokens of the subtree of `node` from `words`; returns how many.
    private static func remove(subtreeOf node: Int, _ trie: TokenTrie.Tables, _ words: UnsafeMutableBufferPointer<UInt64>) -> Int {
        let first = Int(trie.tokenStarts[node])
        let end = Int(trie.tokenStarts[Int(trie.subtreeEnds[node])])
        for token in first..<end {
            let id = trie.tokenIDs[token]
            words[Int(id) >> 6] &= ~(1 << UInt64(id & 63))
        }
        return end - first
    }
}
