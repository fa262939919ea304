import Synchronization

/// What a matcher builds as it goes: the grammar's automaton, state by state, and the token masks
/// of the states it has visited, over one vocabulary.
///
/// Owned by one matcher at a time, or kept on its grammar's ``AutomatonShelf`` between matchers.
final class MatcherAutomaton: @unchecked Sendable {
    var dfa: LazyDFA
    var masks: MaskCache
    /// The quote-free masks of string interiors, shared by their states.
    var interiors: StringInteriorMasks
    /// The tables of the vocabulary the masks are over, `nil` for a matcher without one; held,
    /// so that no other vocabulary can take its place while the masks are kept.
    let vocabulary: VocabularyIndex?

    init(grammar: CompiledGrammar, vocabulary: Vocabulary?) {
        dfa = LazyDFA(
            pool: grammar.pool, classes: grammar.classes, maximumCallDepth: grammar.options.maximumReferenceDepth,
            plainTextLimit: vocabulary?.index.longestPlainText ?? 0)
        masks = MaskCache(byteLimit: GrammarMatcher.maskCacheBytes)
        interiors = StringInteriorMasks(byteLimit: GrammarMatcher.interiorMaskBytes)
        self.vocabulary = vocabulary?.index
    }

    /// The bytes its automaton rows and masks take, a measure of what keeping it costs.
    var byteCount: Int { dfa.stateCount * dfa.width * MemoryLayout<Int32>.stride + masks.byteCount + interiors.byteCount }
}

/// The automata that the finished matchers of one grammar built, handed to its next matchers:
/// a matcher starts with every state and mask its predecessors found instead of building them
/// again, as engines that keep a token-mask cache with a compiled grammar do. Two are kept, so
/// that two matchers running at the same time each get one.
final class AutomatonShelf: Sendable {
    private let kept = Mutex<[MatcherAutomaton]>([])

    /// How many idle automata one grammar keeps.
    static let capacity = 2
    /// The most memory an automaton may take (rows and masks) to be kept, in bytes.
    static let byteLimit = 48 << 20

    /// An automaton built over `vocabulary`, taken off the shelf; `nil` when none is kept.
    func take(over vocabulary: VocabularyIndex?) -> MatcherAutomaton? {
        kept.withLock { automata in
            guard let position = automata.lastIndex(where: { $0.vocabulary === vocabulary }) else { return nil }
            return automata.remove(at: position)
        }
    }

    /// Keeps `automaton` for a later matcher, unless it grew too large; when the shelf is full
    /// the smallest automaton makes room.
    func put(_ automaton: MatcherAutomaton) {
        guard automaton.byteCount <= Self.byteLimit else { return }
        kept.withLock { automata in
            automata.append(automaton)
            if automata.count > Self.capacity,
                let smallest = automata.indices.min(by: { automata[$0].dfa.stateCount < automata[$1].dfa.stateCount })
            {
                automata.remove(at: smallest)
            }
        }
    }
}
