/// Every template of a grammar in one flat NFA, built once per compiled grammar and shared by the
/// automata of its matchers. A lazy automaton expands a call of a definition into a copy that is
/// only an offset into this pool (``LazyDFA``), so an expansion copies no states.
///
/// Immutable after its initializer, and read through plain pointers in the automaton's inner
/// loops.
final class TemplatePool: @unchecked Sendable {
    /// Per pool state `s`: its transitions are `transitions[transitionStarts[s]..<transitionStarts[s + 1]]`.
    let transitionStarts: UnsafeMutablePointer<Int32>
    let transitions: UnsafeMutablePointer<ByteNFA.Transition>
    /// Per pool state `s`: its ε-targets are `epsilons[epsilonStarts[s]..<epsilonStarts[s + 1]]`.
    let epsilonStarts: UnsafeMutablePointer<Int32>
    let epsilons: UnsafeMutablePointer<Int32>
    /// Per pool state: the template it calls, or ``CompactNFA/noCall``.
    let callDefinitions: UnsafeMutablePointer<Int32>
    /// Per pool state with a call: the pool state where the call continues.
    let callContinuations: UnsafeMutablePointer<Int32>
    /// Per pool state: whether any plain text keeps a thread there alive.
    let absorbsPlainText: UnsafeMutablePointer<Bool>
    /// Per template: its first pool state, its start and end states, and its number of states.
    let bases: [Int32]
    let starts: [Int32]
    let ends: [Int32]
    let sizes: [Int32]
    /// Per template: whether it is an array whose items must be distinct
    /// (``GrammarTemplate/checksUniqueness``).
    let checksUniqueness: [Bool]
    /// Whether any template checks uniqueness.
    let hasUniquenessChecks: Bool
    /// Per template: whether it is the contents of a string (``GrammarTemplate/readsStringContents``)
    /// and calls only templates of ``readsStringCharacters``, so that its copies read the same
    /// wherever they are called from.
    let readsStringContents: [Bool]
    /// Per template: whether it reads string characters only (``GrammarTemplate/readsStringCharacters``)
    /// and calls only such templates, none of them again: called from string contents, its copies
    /// are part of their interior.
    let readsStringCharacters: [Bool]
    /// The most copies that nest within one copy of string contents, itself included: 1 when
    /// string contents call nothing.
    let stringContentsNesting: Int

    /// - Parameter templates: the root's template first, then one per definition.
    init(templates: [GrammarTemplate]) {
        var nfa = CompactNFA()
        var bases: [Int32] = []
        var starts: [Int32] = []
        var ends: [Int32] = []
        var sizes: [Int32] = []
        for template in templates {
            let base = nfa.append(template.nfa)
            bases.append(base)
            starts.append(template.start + base)
            ends.append(template.end + base)
            sizes.append(Int32(template.nfa.stateCount))
        }
        self.bases = bases
        self.starts = starts
        self.ends = ends
        self.sizes = sizes
        checksUniqueness = templates.map(\.checksUniqueness)
        // Character templates whose calls all reach valid ones, with how deeply copies nest in
        // them: found from those that call nothing, so that a template in a cycle never is.
        let callees = templates.map { template in
            Set((0..<template.nfa.stateCount).map { template.nfa.callDefinitions[$0] }.filter { $0 != CompactNFA.noCall })
        }
        var nesting = [Int?](repeating: nil, count: templates.count)
        var changed = true
        while changed {
            changed = false
            for (index, template) in templates.enumerated() where template.readsStringCharacters && nesting[index] == nil {
                let depths = callees[index].map { Int($0) < templates.count ? nesting[Int($0)] : nil }
                guard depths.allSatisfy({ $0 != nil }) else { continue }
                nesting[index] = 1 + depths.reduce(0) { max($0, $1 ?? 0) }
                changed = true
            }
        }
        readsStringCharacters = nesting.map { $0 != nil }
        var contentsNesting = 1
        readsStringContents = templates.enumerated().map { index, template in
            guard template.readsStringContents else { return false }
            var deepest = 0
            for callee in callees[index] {
                guard Int(callee) < templates.count, let depth = nesting[Int(callee)] else { return false }
                deepest = max(deepest, depth)
            }
            contentsNesting = max(contentsNesting, 1 + deepest)
            return true
        }
        stringContentsNesting = contentsNesting
        hasUniquenessChecks = checksUniqueness.contains(true)
        transitionStarts = Self.copy(nfa.transitionStarts)
        transitions = Self.copy(nfa.transitions)
        epsilonStarts = Self.copy(nfa.epsilonStarts)
        epsilons = Self.copy(nfa.epsilons)
        callDefinitions = Self.copy(nfa.callDefinitions)
        callContinuations = Self.copy(nfa.callContinuations)
        absorbsPlainText = Self.copy(nfa.absorbsPlainText)
    }

    deinit {
        transitionStarts.deallocate()
        transitions.deallocate()
        epsilonStarts.deallocate()
        epsilons.deallocate()
        callDefinitions.deallocate()
        callContinuations.deallocate()
        absorbsPlainText.deallocate()
    }

    private static func copy<Element>(_ elements: [Element]) -> UnsafeMutablePointer<Element> {
        let pointer = UnsafeMutablePointer<Element>.allocate(capacity: max(1, elements.count))
        _ = UnsafeMutableBufferPointer(start: pointer, count: elements.count).initialize(from: elements)
        return pointer
    }
}
