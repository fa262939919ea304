/// A compiled piece of grammar: the automaton of the root or of one definition, with the states
/// where it starts and ends.
struct GrammarTemplate: Sendable {
    var nfa: CompactNFA
    var start: Int32
    var end: Int32
    /// Whether the template is an array whose items must differ from one another, checked while
    /// matching (``UniquenessTracker``): its start reads the `[`, and every state after it, in
    /// the template or in the definitions it calls, is inside the array.
    var checksUniqueness = false
    /// Whether the template is the contents of a `pattern` or `format` string, between its
    /// quotes: its states read string characters only, and it ends where the closing quote is
    /// read (``LazyDFA/stringInterior(_:)``).
    var readsStringContents = false
}
