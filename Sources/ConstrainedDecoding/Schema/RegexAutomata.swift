import Synchronization

/// The automata one compilation builds from regular expressions, kept by expression and length
/// limits: a `pattern` that several schemas share, or that value after value is checked against
/// (each `enum` and `const` value against the schema around it), is determinized once. A
/// validator keeps one for all its checks, which may run on several threads at once.
final class RegexAutomata: Sendable {
    private struct Key: Hashable {
        let node: RegexNode?
        let minimumLength: Int
        let maximumLength: Int?
    }

    private let automata = Mutex<[Key: CodePointAutomaton]>([:])

    /// ``CodePointAutomaton/of(_:minimumLength:maximumLength:)``, built on first use.
    func automaton(of node: RegexNode?, minimumLength: Int = 0, maximumLength: Int? = nil) throws(RegexError) -> CodePointAutomaton {
        let key = Key(node: node, minimumLength: minimumLength, maximumLength: maximumLength)
        if let known = automata.withLock({ $0[key] }) { return known }
        let automaton = try CodePointAutomaton.of(node, minimumLength: minimumLength, maximumLength: maximumLength)
        automata.withLock { $0[key] = automaton }
        return automaton
    }
}
