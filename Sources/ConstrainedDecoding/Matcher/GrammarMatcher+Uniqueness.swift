/// Token masks in arrays whose items must be distinct strings.
extension GrammarMatcher {
    /// The most automaton states the searches for items that repeat no earlier one visit for one
    /// mask; past it, the items still unsearched are taken to have one.
    static let uniquenessSearchBudget = 1024

    /// Removes from `mask` the tokens that end an item equal to an earlier one, or lead to an
    /// item that can only end up equal to one: the tokens with a quote or a backslash, and those
    /// that spell the rest of an earlier item from the current one.
    func removeRepeats(from mask: inout TokenBitset, index: VocabularyIndex) {
        guard let vocabulary else { return }
        var search = uniquenessSearch.reused(for: tracker.items, budget: Self.uniquenessSearchBudget)
        func check(_ token: Int32) {
            guard mask.contains(token) else { return }
            var following = tracker
            guard let next = run(state, &following, vocabulary.tokens[Int(token)]), canFinishItem(next, following, &search) else {
                mask.remove(token)
                return
            }
        }
        for token in index.quoteOrEscapeTokens { check(token) }
        var checked = Set<Int32>()
        for remainder in tracker.remainders {
            index.trie.forEachToken(startingWith: remainder) { token in
                if checked.insert(token).inserted { check(token) }
            }
        }
        uniquenessSearch = search
    }

    /// Whether the item being read, in `state` with `following` for its array, can end as no
    /// earlier item (`true` outside such an item).
    func canFinishItem(_ state: Int32, _ following: UniquenessTracker) -> Bool {
        guard checksUniqueness, following.mayRepeat else { return true }
        var search = uniquenessSearch.reused(for: tracker.items, budget: Self.uniquenessSearchBudget)
        defer { uniquenessSearch = search }
        return canFinishItem(state, following, &search)
    }

    private func canFinishItem(_ state: Int32, _ following: UniquenessTracker, _ search: inout UniquenessSearch) -> Bool {
        guard following.mayRepeat else { return true }
        let range = following.itemsStartedByCurrent
        let depth = following.current.count
        guard following.items == search.items else {
            // An item ended on the way, and another started that may repeat.
            var other = UniquenessSearch().reused(for: following.items, budget: search.budget)
            defer { search.budget = other.budget }
            return canEndItem(state, range, depth: depth, inEscape: following.isInEscape, &other)
        }
        return canEndItem(state, range, depth: depth, inEscape: following.isInEscape, &search)
    }

    /// Whether the item being read can end, from `state`, as no earlier item, when it spells the
    /// first `depth` bytes of `search.items[range]`: a search of the bytes that keep it the start
    /// of an earlier item, which first tries every byte that leaves all of them behind.
    private func canEndItem(_ state: Int32, _ range: Range<Int>, depth: Int, inEscape: Bool, _ search: inout UniquenessSearch) -> Bool {
        guard !range.isEmpty, automaton.dfa.hasUniqueThreads(state) else { return true }
        let key = UniquenessSearch.Key(state: state, low: Int32(range.lowerBound), high: Int32(range.upperBound), depth: Int32(depth), inEscape: inEscape)
        if let outcome = search.outcomes[key] { return outcome }
        guard search.budget > 0 else {
            search.isCut = true
            return true
        }
        search.budget -= 1
        let wasCut = search.isCut
        search.isCut = false
        let outcome = searchItemEnd(state, range, depth: depth, inEscape: inEscape, &search)
        // An outcome that a cut search assumed is not kept.
        if !search.isCut { search.outcomes[key] = outcome }
        search.isCut = search.isCut || wasCut
        return outcome
    }

    private func searchItemEnd(_ state: Int32, _ range: Range<Int>, depth: Int, inEscape: Bool, _ search: inout UniquenessSearch) -> Bool {
        // The items this one may still become, by their next byte: runs of `range`, since the
        // items are in byte order and the one that ends here comes first.
        let items = search.items
        let isItem = items[range.lowerBound].count == depth
        let first = range.lowerBound + (isItem ? 1 : 0)
        var expected = ByteSet()
        for position in first..<range.upperBound { expected.insert(items[position][depth]) }
        // A byte class of the state's row with a byte that no item goes on with ends the search.
        // A quote outside an escape closes the item instead.
        let quote = UInt8(ascii: "\"")
        if !inEscape { expected.insert(quote) }
        guard automaton.dfa.next(state, 0) != LazyDFA.unknown else { return true }
        let row = automaton.dfa.rowBase + Int(state) * automaton.dfa.width
        for (byteClass, members) in byteClassMembers.enumerated() where row[byteClass] >= 0 && !members.isSubset(of: expected) {
            return true
        }
        // The item can end here: as a new one, or as a repeat that only other alternatives survive.
        let closing = row[Int(automaton.dfa.classOf[Int(quote)])]
        if !inEscape, closing >= 0, !isItem || automaton.dfa.withoutUniqueThreads(closing) >= 0 { return true }
        var start = first
        while start < range.upperBound {
            let byte = items[start][depth]
            var end = start + 1
            while end < range.upperBound, items[end][depth] == byte { end += 1 }
            let next = automaton.dfa.next(state, byte)
            if next >= 0, canEndItem(next, start..<end, depth: depth + 1, inEscape: !inEscape && byte == UInt8(ascii: "\\"), &search) { return true }
            start = end
        }
        return false
    }
}

/// What the searches for items that repeat no earlier one found, kept from mask to mask while
/// the earlier items stay the same.
struct UniquenessSearch {
    /// A search from one state, for the earlier items `low..<high`, which the item so far
    /// spells the first `depth` bytes of.
    struct Key: Hashable {
        let state: Int32
        let low: Int32
        let high: Int32
        let depth: Int32
        let inEscape: Bool
    }

    /// The earlier items, in byte order.
    private(set) var items: [[UInt8]] = []
    var outcomes: [Key: Bool] = [:]
    /// How many more states this mask's searches may visit.
    var budget = 0
    /// Whether the search under way ran out of budget somewhere, and assumed its outcome.
    var isCut = false

    /// This search's outcomes when its items are `items`, none otherwise, with a new budget.
    func reused(for items: [[UInt8]], budget: Int) -> UniquenessSearch {
        var search = self.items == items ? self : UniquenessSearch()
        search.items = items
        search.budget = budget
        search.isCut = false
        return search
    }
}
