/// How much work ``CompiledGrammar/precomputeMasks(for:budget:)`` may do before it leaves the
/// rest to the first mask in each state, as without it.
public struct MaskPrecomputationBudget: Sendable {
    /// The most masks computed for the contents of one `pattern` or `format` string, nearest its
    /// start first.
    public var walksPerString: Int
    /// The most states of the grammar visited (and their masks kept), breadth first from its
    /// start, after the strings.
    public var grammarStates: Int
    /// The most token-trie nodes the precomputed masks may read in all, as a multiple of the
    /// vocabulary trie's size (one full walk each).
    public var fullWalks: Int
    /// The most states visited in all.
    public var states: Int
    /// The most memory the precomputed masks may take, in bytes.
    public var maskBytes: Int

    /// A budget of `walksPerString` masks per string's contents, `grammarStates` states of the
    /// grammar, `fullWalks` walks of the whole trie, `states` states and `maskBytes` bytes in all.
    public init(walksPerString: Int = 64, grammarStates: Int = 256, fullWalks: Int = 96, states: Int = 8192, maskBytes: Int = 12 << 20) {
        self.walksPerString = walksPerString
        self.grammarStates = grammarStates
        self.fullWalks = fullWalks
        self.states = states
        self.maskBytes = maskBytes
    }
}

/// What ``CompiledGrammar/precomputeMasks(for:budget:)`` did.
public struct MaskPrecomputation: Sendable {
    /// The automaton states visited, breadth first from the start.
    public var statesVisited = 0
    /// The states whose masks were computed and kept.
    public var masksKept = 0
    /// The bytes the grammar's kept masks take afterwards.
    public var maskBytes = 0
    /// Whether every reachable state was visited and every mask worth keeping kept: `false` when
    /// the budget ran out first, and the rest is left to the first mask in each state.
    public var isComplete = false
}

extension CompiledGrammar {
    /// Computes, before generation, the token masks over `vocabulary` that would be slow to
    /// compute at their first use, and keeps them for the grammar's next matcher over
    /// `vocabulary`, as those that matchers build are kept.
    ///
    /// First the contents of each `pattern` and `format` string alone (an email address, an IRI,
    /// letters and spaces only): the masks of the states they lead to, less the tokens that hold a
    /// quote, which every copy of those contents shares wherever the grammar calls them
    /// (``LazyDFA/stringInterior(_:)``); a state inside such a string then walks only the tokens
    /// with a quote. Then the grammar's own states, breadth first from the start through a byte
    /// of each byte class: the first masks of the values and member names nearest the start,
    /// where most documents go. Each may build many states of the automaton (after a member name,
    /// the starts of its value that tokens such as `":[` reach) and take tens of microseconds over
    /// a large vocabulary. Masks are those a matcher computes; only when they are computed changes.
    ///
    /// - Returns: what was visited and kept, within `budget`.
    @discardableResult
    public func precomputeMasks(for vocabulary: Vocabulary, budget: MaskPrecomputationBudget = MaskPrecomputationBudget()) -> MaskPrecomputation {
        GrammarMatcher(grammar: self, vocabulary: vocabulary).precomputeMasks(budget)
    }
}

extension GrammarMatcher {
    /// The fraction of the vocabulary trie's nodes (as a divisor) that the allowed first bytes of
    /// a state must open for its mask to be precomputed: below it, a first mask takes some tens
    /// of microseconds at most.
    static let precomputedWalkDivisor = 16

    /// See ``CompiledGrammar/precomputeMasks(for:budget:)``.
    func precomputeMasks(_ budget: MaskPrecomputationBudget) -> MaskPrecomputation {
        var search = PrecomputationSearch(budget: budget, trieNodes: vocabulary?.index.trie.nodeCount ?? 0)
        guard let index = vocabulary?.index else { return search.result }
        var mask = TokenBitset(capacity: vocabulary?.count ?? 0)
        // String contents alone: their states' masks are kept by interior only. First the state
        // nearest the start worth a walk in each (a string's first mask, most often), then the
        // rest of each: where many strings' contents share the budget, each start is covered.
        let entries = (0..<automaton.dfa.templateCount).map { automaton.dfa.isolatedStringContents($0) }.filter { $0 >= 0 }
        for walkLimit in [min(1, budget.walksPerString), budget.walksPerString] {
            let wasComplete = search.result.isComplete
            for entry in entries {
                guard explore(from: entry, &search, &mask, index.trie, grammarStates: false, walkLimit: walkLimit) else { return search.finished(automaton) }
            }
            // Stopping at the first walk of each leaves nothing undone: the second round goes on.
            if walkLimit < budget.walksPerString { search.result.isComplete = wasComplete }
        }
        _ = explore(from: automaton.dfa.start, &search, &mask, index.trie, grammarStates: true, walkLimit: budget.walksPerString)
        return search.finished(automaton)
    }

    /// Visits the states reachable from `entry` breadth first, and keeps their masks: by state
    /// when `grammarStates` (up to the budget's ``MaskPrecomputationBudget/grammarStates``), else
    /// by interior only, for those whose walk would read a large part of `trie` (up to `walkLimit`
    /// masks, those of interiors kept already not counted). `false` when the whole budget ran out,
    /// or the part for this search did while states were left.
    private func explore(
        from entry: Int32, _ search: inout PrecomputationSearch, _ mask: inout TokenBitset, _ trie: borrowing TokenTrie, grammarStates: Bool,
        walkLimit: Int
    ) -> Bool {
        // A byte of each byte class, rows being read by class; inside strings, of the printable
        // ASCII characters but the quote and the backslash only, which most string values (an
        // address, a name, a date) are made of: the budget goes to the states they reach.
        var representatives: [UInt8] = []
        var classes = Set<UInt8>()
        for byte in grammarStates ? 0...255 : 0x20...0x7E as ClosedRange<UInt8> where grammarStates || (byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")) {
            if classes.insert(automaton.dfa.classOf[Int(byte)]).inserted { representatives.append(byte) }
        }
        let threshold = max(trie.nodeCount / Self.precomputedWalkDivisor, 1)
        var seen: Set<Int32> = [entry]
        var queue: [Int32] = [entry]
        var head = 0
        var walks = 0
        while head < queue.count {
            guard search.hasRoom(automaton), grammarStates ? head < search.budget.grammarStates : walks < walkLimit else {
                search.result.isComplete = false
                return search.hasRoom(automaton)
            }
            let state = queue[head]
            head += 1
            search.result.statesVisited += 1
            // Inside strings' contents, a state where every plain-text character leads to one
            // state, and its length settles plain text (as in a string of counted characters),
            // leads only to such states: its mask builds their chain, along which the masks of
            // the others take a few new states each. It is kept, and the search goes no further.
            let settlesChain = !grammarStates && automaton.dfa.plainTextRun(state) != nil && automaton.dfa.plainTextTarget(state) != nil
            for byte in representatives where !settlesChain {
                let next = automaton.dfa.next(state, byte)
                if next >= 0, seen.insert(next).inserted { queue.append(next) }
            }
            let opened = openedNodes(at: state, trie: trie)
            // The grammar's states are all kept: few as they are, each first mask near the start
            // may build many states. Inside strings' contents, only those whose walk reads much of
            // the trie, where plain text does not settle it.
            if !grammarStates {
                guard opened >= threshold, settlesChain || (automaton.dfa.plainTextRun(state) == nil && automaton.dfa.plainTextRefusals(state) == nil) else { continue }
                // A state whose interior is kept already has nothing more to keep.
                if let interior = automaton.dfa.stringInterior(state), automaton.interiors.contains(interior) { continue }
            }
            keepMask(at: state, in: &mask, keepingState: grammarStates)
            walks += 1
            search.walkBudget -= opened
            search.result.masksKept += 1
        }
        return true
    }

    /// How many nodes of `trie` lie below the first bytes that `state` allows: what a walk of it
    /// reads at most.
    private func openedNodes(at state: Int32, trie: borrowing TokenTrie) -> Int {
        var opened = 0
        for first in 0..<256 where trie.rootNodes[first] >= 0 && automaton.dfa.next(state, UInt8(first)) >= 0 {
            let root = Int(trie.rootNodes[first])
            opened += Int(trie.subtreeEnds[root]) - root
        }
        return opened
    }
}

/// The budget left to a precomputation, and what it did so far.
private struct PrecomputationSearch {
    let budget: MaskPrecomputationBudget
    /// The trie nodes the masks still to compute may read.
    var walkBudget: Int
    var result = MaskPrecomputation(isComplete: true)

    init(budget: MaskPrecomputationBudget, trieNodes: Int) {
        self.budget = budget
        walkBudget = budget.fullWalks * trieNodes
    }

    /// Whether another state may be visited.
    func hasRoom(_ automaton: MatcherAutomaton) -> Bool {
        result.statesVisited < budget.states && walkBudget > 0 && automaton.masks.byteCount + automaton.interiors.byteCount < budget.maskBytes
    }

    func finished(_ automaton: MatcherAutomaton) -> MaskPrecomputation {
        var result = result
        result.maskBytes = automaton.masks.byteCount + automaton.interiors.byteCount
        if !hasRoom(automaton) { result.isComplete = false }
        return result
    }
}
