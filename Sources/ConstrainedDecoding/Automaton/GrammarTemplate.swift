/// A compiled piece of grammar: the automaton of the root or of one definition, with the states
/// where it starts and ends.
struct GrammarTemplate: Sendable {
    var nfa: CompactNFA
    var start: Int32
    var end: Int32
}
