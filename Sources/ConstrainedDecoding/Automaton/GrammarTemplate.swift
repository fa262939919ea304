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
    /// Whether the template is the contents of a string, between its quotes (a `pattern` or
    /// `format` string, a member name, a string of counted characters): its states read string
    /// characters only, and it ends where the closing quote is read
    /// (``LazyDFA/stringInterior(_:)``).
    var readsStringContents = false
    /// Whether the template reads string characters only, never a quote, and calls only such
    /// templates (one character, or a block of them): called from string contents, its copies
    /// are part of their interior.
    var readsStringCharacters = false
}
